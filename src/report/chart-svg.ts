/**
 * The report's chart: one column per release (version order), one lane per scoring weight (a step
 * line, labelled where its value changes) and one band per matching feature (filled where the
 * release has it, with its value when it is more than yes/no, such as a cap). Group boundaries
 * (change points) are dashed lines linking to the change's section; a release that could not be
 * lifted is a hatched column. Plain SVG, no script: every text goes through esc.
 */
import { esc } from "./html.js";
import type { Semantics } from "../routines/pack.js";

export interface ChartColumn {
  version: string;
  /** Index of the release's group in the timeline. */
  group: number;
  /** The lifted module's weights and features; null when there is none (not lifted, unreadable). */
  semantics: Semantics | null;
  error?: string;
}

const LABEL_W = 270;
const TITLE_H = 24;
const LANE_H = 30;
const BAND_H = 20;

const absent = (feature: string, value: string) => (feature.startsWith("weight:") ? value === "—" : value === "no" || value === "—");

/** Where everything goes: computed once from the columns, read by each part of the chart. */
interface Layout {
  cols: ChartColumn[];
  n: number;
  colW: number;
  rotate: boolean;
  headerH: number;
  width: number;
  height: number;
  weights: string[];
  features: string[];
  weightsTop: number;
  featuresTop: number;
  plotBottom: number;
  maxW: number;
  xl: (j: number) => number;
  xc: (j: number) => number;
  value: (c: ChartColumn, f: string) => string | undefined;
}

const nums = (v: string | undefined) =>
  v === undefined
    ? []
    : v
        .split(" / ")
        .map(Number)
        .filter((x) => Number.isFinite(x));

export function timelineChart(cols: ChartColumn[]): string {
  const l = layout(cols);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="${l.width}" height="${l.height}" viewBox="0 0 ${l.width} ${l.height}" role="img" aria-label="weights and features per release">`,
    `<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern></defs>`,
    ...groupShading(l),
    ...releaseAxis(l),
    ...changeLines(l),
    ...notLifted(l),
    `<text class="section" x="8" y="${l.weightsTop - 8}">weights</text>`,
    ...l.weights.flatMap((f, i) => weightLane(l, f, i)),
    `<text class="section" x="8" y="${l.featuresTop - 8}">features</text>`,
    ...l.features.flatMap((f, i) => featureBand(l, f, i)),
    `</svg>`,
  ];
  return out.join("\n");
}

function layout(cols: ChartColumn[]): Layout {
  const n = cols.length;
  const colW = n <= 10 ? 88 : Math.max(16, Math.floor(900 / n));
  const rotate = colW < 70;
  // Room for the version labels: horizontal, or slanted when the columns are narrow.
  const longest = cols.reduce((m, c) => Math.max(m, c.version.length), 0);
  const headerH = rotate ? 24 + 6 * longest : 36;
  const order: string[] = [];
  for (const c of cols) for (const r of c.semantics ?? []) if (!order.includes(r.feature)) order.push(r.feature);
  const value = (c: ChartColumn, f: string) => c.semantics?.find((r) => r.feature === f)?.value;
  const present = (f: string) =>
    cols.some((c) => {
      const v = value(c, f);
      return v !== undefined && !absent(f, v);
    });
  const weights = order.filter((f) => f.startsWith("weight:") && present(f));
  const features = order.filter((f) => !f.startsWith("weight:"));
  const weightsTop = headerH + TITLE_H;
  const featuresTop = weightsTop + weights.length * LANE_H + TITLE_H;
  const plotBottom = featuresTop + features.length * BAND_H;
  const xl = (j: number) => LABEL_W + j * colW;
  let maxW = 1;
  for (const c of cols) for (const f of weights) for (const x of nums(value(c, f))) maxW = Math.max(maxW, x);
  return {
    cols,
    n,
    colW,
    rotate,
    headerH,
    weights,
    features,
    weightsTop,
    featuresTop,
    plotBottom,
    maxW,
    xl,
    value,
    // Slanted labels reach past the last column.
    width: LABEL_W + n * colW + (rotate ? 6 * longest : 16),
    height: plotBottom + 12,
    xc: (j: number) => xl(j) + colW / 2,
  };
}

/** Groups: alternate shading, so releases sharing a routine read as one block. */
function groupShading({ cols, n, colW, headerH, plotBottom, xl }: Layout): string[] {
  const out: string[] = [];
  let start = 0;
  for (let j = 1; j <= n; j++) {
    if (j < n && cols[j]!.group === cols[start]!.group) continue;
    const g = cols[start]!.group;
    out.push(
      `<rect class="group-bg${g % 2 ? " odd" : ""}" x="${xl(start)}" y="${headerH - 8}" width="${(j - start) * colW}" height="${plotBottom - headerH + 8}"/>`,
    );
    start = j;
  }
  return out;
}

/** Release axis: one tick and label per release. */
function releaseAxis({ cols, rotate, headerH, plotBottom, xc }: Layout): string[] {
  const out = [`<g class="release-axis">`];
  for (const [j, c] of cols.entries()) {
    const label = rotate
      ? `<text class="version" x="${xc(j)}" y="${headerH - 12}" transform="rotate(-45 ${xc(j)} ${headerH - 12})" text-anchor="start">${esc(c.version)}</text>`
      : `<text class="version" x="${xc(j)}" y="${headerH - 14}" text-anchor="middle">${esc(c.version)}</text>`;
    out.push(
      `<line class="release-tick" data-version="${esc(c.version)}" x1="${xc(j)}" x2="${xc(j)}" y1="${headerH - 8}" y2="${plotBottom}"><title>${esc(c.version)}</title></line>`,
      label,
    );
  }
  out.push(`</g>`);
  return out;
}

/** Change points: between the last release of a group and the first of the next. */
function changeLines({ cols, n, headerH, plotBottom, xl }: Layout): string[] {
  const out: string[] = [];
  for (let j = 1; j < n; j++) {
    if (cols[j]!.group === cols[j - 1]!.group) continue;
    const x = xl(j);
    const g = cols[j]!.group;
    out.push(
      `<a href="#change-${g}" class="change-link"><line class="change-line" x1="${x}" x2="${x}" y1="${headerH - 8}" y2="${plotBottom}"/><title>change ${esc(cols[j - 1]!.version)} → ${esc(cols[j]!.version)}</title></a>`,
    );
  }
  return out;
}

/** Not lifted: a hatched column each (with the error as its tooltip), one label per run of them. */
function notLifted({ cols, n, colW, weightsTop, plotBottom, xl }: Layout): string[] {
  const out: string[] = [];
  for (let j = 0; j < n; j++) {
    if (cols[j]!.semantics) continue;
    let end = j;
    while (end + 1 < n && !cols[end + 1]!.semantics) end++;
    for (let k = j; k <= end; k++) {
      const c = cols[k]!;
      out.push(
        `<rect class="not-lifted" x="${xl(k) + 1}" y="${weightsTop}" width="${colW - 2}" height="${plotBottom - weightsTop}" fill="url(#hatch)"><title>${esc(c.version)}: ${esc(c.error ?? "not lifted")}</title></rect>`,
      );
    }
    const mid = (xl(j) + xl(end + 1)) / 2;
    out.push(
      xl(end + 1) - xl(j) >= 64
        ? `<text class="not-lifted-label" x="${mid}" y="${weightsTop + 12}" text-anchor="middle">not lifted</text>`
        : `<text class="not-lifted-label" x="${mid + 4}" y="${weightsTop + 6}" transform="rotate(90 ${mid + 4} ${weightsTop + 6})">not lifted</text>`,
    );
    j = end;
  }
  return out;
}

/** A weight: a step line in its lane, on one scale for all lanes. */
function weightLane({ cols, n, weightsTop, maxW, xl, xc, value }: Layout, f: string, i: number): string[] {
  const top = weightsTop + i * LANE_H;
  const y = (v: number) => top + LANE_H - 5 - (v / maxW) * (LANE_H - 15);
  const out = [
    `<g class="lane weight" data-feature="${esc(f)}">`,
    `<text class="lane-label" x="8" y="${top + LANE_H / 2 + 4}">${esc(f.replace(/^weight: /, ""))}</text>`,
  ];
  out.push(`<line class="baseline" x1="${LABEL_W}" x2="${xl(n)}" y1="${top + LANE_H - 5}" y2="${top + LANE_H - 5}"/>`);
  let path = "";
  let prev: string | undefined;
  for (const [j, c] of cols.entries()) {
    const v = value(c, f);
    const ns = nums(v);
    if (v === undefined || absent(f, v) || ns.length === 0) {
      prev = undefined;
      continue;
    }
    const yy = y(Math.max(...ns));
    path += prev === undefined ? `M${xl(j)} ${yy}H${xl(j + 1)}` : `V${yy}H${xl(j + 1)}`;
    out.push(`<circle class="point" cx="${xc(j)}" cy="${yy}" r="2.5"><title>${esc(c.version)}: ${esc(f)} = ${esc(v)}</title></circle>`);
    if (v !== prev) out.push(`<text class="value" x="${xc(j)}" y="${yy - 4}" text-anchor="middle">${esc(v)}</text>`);
    prev = v;
  }
  if (path) out.push(`<path class="step" d="${path}"/>`);
  out.push(`</g>`);
  return out;
}

/** A feature: a band where the release has it, with its value when it is not just "yes". */
function featureBand({ cols, n, colW, featuresTop, xl, value }: Layout, f: string, i: number): string[] {
  const top = featuresTop + i * BAND_H;
  const out = [
    `<g class="lane feature" data-feature="${esc(f)}">`,
    `<text class="lane-label" x="8" y="${top + BAND_H / 2 + 4}">${esc(f)}</text>`,
  ];
  out.push(`<line class="baseline" x1="${LABEL_W}" x2="${xl(n)}" y1="${top + BAND_H / 2}" y2="${top + BAND_H / 2}"/>`);
  let prev: string | undefined;
  const labels: string[] = [];
  for (const [j, c] of cols.entries()) {
    const v = value(c, f);
    if (v === undefined || absent(f, v)) {
      prev = undefined;
      continue;
    }
    out.push(
      `<rect class="band${v === "yes" ? "" : " valued"}" x="${xl(j)}" y="${top + 3}" width="${colW}" height="${BAND_H - 6}"><title>${esc(c.version)}: ${esc(f)} = ${esc(v)}</title></rect>`,
    );
    if (v !== "yes" && v !== prev) labels.push(`<text class="band-value" x="${xl(j) + 4}" y="${top + BAND_H / 2 + 4}">${esc(v)}</text>`);
    prev = v;
  }
  out.push(...labels, `</g>`);
  return out;
}
