/**
 * The report's chart, drawn from chart-rows.ts's model (timeline.json's measured rows) and nothing else: one
 * column per release (version order), one lane per row. A yes/no row is a band (filled: yes; outlined: no), a
 * number row a step line on the lane's own scale, labelled where its value changes, any other row a labelled
 * band. Every drawn value is a `.cell` holding its release, row, value and readings as data attributes, so a
 * test can hold each one against timeline.json. Group boundaries (change points) are dashed lines linking to
 * the change's section; a release that was not lifted, or whose group no change point measured, is a hatched
 * column. Plain SVG, no script: every text goes through esc.
 */
import { esc } from "./html.js";
import { isBlankValue, type ChartCell, type ChartLane, type ChartModel } from "./chart-rows.js";

const TITLE_H = 24;
const HEIGHT: Record<ChartLane["kind"], number> = { "yes/no": 20, number: 30, text: 20 };
/** Width of a label character at the chart's 10–12 px, to fit labels into their columns. */
const CHAR_W = 6.2;

/** Where everything goes: computed once from the model, read by each part of the chart. */
interface Layout {
  m: ChartModel;
  n: number;
  labelW: number;
  colW: number;
  rotate: boolean;
  headerH: number;
  width: number;
  height: number;
  lanesTop: number;
  laneTop: number[];
  plotBottom: number;
  xl: (j: number) => number;
  xc: (j: number) => number;
}

export function timelineChart(m: ChartModel): string {
  const l = layout(m);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="${l.width}" height="${l.height}" viewBox="0 0 ${l.width} ${l.height}" role="img" aria-label="measured rows per release">`,
    `<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern>`,
    `<pattern id="hatch-soft" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-soft-bg"/><line x1="0" y1="0" x2="0" y2="6" class="hatch-soft-line"/></pattern></defs>`,
    ...groupShading(l),
    ...releaseAxis(l),
    ...changeLines(l),
    ...unmeasured(l),
    ...m.lanes.flatMap((lane, i) => drawLane(l, lane, i)),
    `</svg>`,
  ];
  return out.join("\n");
}

function layout(m: ChartModel): Layout {
  const n = m.columns.length;
  const colW = n <= 10 ? 88 : Math.max(16, Math.floor(900 / n));
  const rotate = colW < 70;
  // Room for the version labels: horizontal, or slanted when the columns are narrow.
  const longest = m.columns.reduce((x, c) => Math.max(x, c.version.length), 0);
  const headerH = rotate ? 24 + 6 * longest : 36;
  const labelW = Math.min(340, Math.max(160, 16 + Math.ceil(CHAR_W * m.lanes.reduce((x, lane) => Math.max(x, lane.feature.length), 0))));
  const lanesTop = headerH + TITLE_H / 2;
  const laneTop: number[] = [];
  let y = lanesTop;
  for (const lane of m.lanes) {
    laneTop.push(y);
    y += HEIGHT[lane.kind];
  }
  const xl = (j: number) => labelW + j * colW;
  return {
    m,
    n,
    labelW,
    colW,
    rotate,
    headerH,
    lanesTop,
    laneTop,
    plotBottom: y,
    xl,
    // Slanted labels reach past the last column.
    width: labelW + n * colW + (rotate ? 6 * longest : 16),
    height: y + 12,
    xc: (j: number) => xl(j) + colW / 2,
  };
}

/** Groups: alternate shading, so releases sharing a routine read as one block. */
function groupShading({ m, n, colW, headerH, plotBottom, xl }: Layout): string[] {
  const cols = m.columns;
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
function releaseAxis({ m, rotate, headerH, plotBottom, xc }: Layout): string[] {
  const out = [`<g class="release-axis">`];
  for (const [j, c] of m.columns.entries()) {
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
function changeLines({ m, n, headerH, plotBottom, xl }: Layout): string[] {
  const cols = m.columns;
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

/** Releases with no readings: a hatched column each (its reason as the tooltip), one label per run of them. */
function unmeasured({ m, n, colW, lanesTop, plotBottom, xl }: Layout): string[] {
  const cols = m.columns;
  const out: string[] = [];
  const top = lanesTop - 4;
  const height = Math.max(24, plotBottom - top);
  for (let j = 0; j < n; j++) {
    const state = cols[j]!.state;
    if (state === "measured") continue;
    let end = j;
    while (end + 1 < n && cols[end + 1]!.state === state) end++;
    const cls = state === "not lifted" ? "not-lifted" : "not-measured";
    for (let k = j; k <= end; k++) {
      const c = cols[k]!;
      out.push(
        `<rect class="${cls}" data-version="${esc(c.version)}" x="${xl(k) + 1}" y="${top}" width="${colW - 2}" height="${height}" fill="url(#${state === "not lifted" ? "hatch" : "hatch-soft"})"><title>${esc(c.version)}: ${esc(state)}: ${esc(c.reason ?? "")}</title></rect>`,
      );
    }
    const mid = (xl(j) + xl(end + 1)) / 2;
    out.push(
      xl(end + 1) - xl(j) >= 80
        ? `<text class="${cls}-label" x="${mid}" y="${top + 14}" text-anchor="middle">${esc(state)}</text>`
        : `<text class="${cls}-label" x="${mid + 4}" y="${top + 6}" transform="rotate(90 ${mid + 4} ${top + 6})">${esc(state)}</text>`,
    );
    j = end;
  }
  return out;
}

/** A label cut to `width` pixels, its end marked; the cell's title holds it whole. */
function fit(text: string, width: number): string {
  const max = Math.max(1, Math.floor((width - 6) / CHAR_W));
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/** The cell's wrapper: the release, row, shown value and readings, and a tooltip that says them. */
function cellOpen(l: Layout, lane: ChartLane, c: ChartCell, kind: string): string {
  const col = l.m.columns[c.column]!;
  const readings = JSON.stringify(c.readings);
  const against =
    c.readings.length > 1 && new Set(c.readings.map((r) => r.value)).size > 1
      ? ` (${c.readings.map((r) => `measured against the ${r.side === "after" ? "group before" : "group after"}: ${r.value}`).join("; ")})`
      : "";
  return `<g class="cell ${kind}${against ? " differs" : ""}" data-feature="${esc(lane.feature)}" data-version="${esc(col.version)}" data-column="${c.column}" data-value="${esc(c.value)}" data-readings="${esc(readings)}"><title>${esc(col.version)}: ${esc(lane.feature)} = ${esc(c.value)}${esc(against)}</title>`;
}

function drawLane(l: Layout, lane: ChartLane, i: number): string[] {
  const top = l.laneTop[i]!;
  const h = HEIGHT[lane.kind];
  const out = [
    `<g class="lane ${lane.kind === "yes/no" ? "yes-no" : lane.kind}" data-feature="${esc(lane.feature)}" data-kind="${esc(lane.kind)}">`,
    `<text class="lane-label" x="8" y="${top + h / 2 + 4}">${esc(fit(lane.feature, l.labelW - 8))}<title>${esc(lane.feature)}</title></text>`,
    `<line class="baseline" x1="${l.labelW}" x2="${l.xl(l.n)}" y1="${top + h - (lane.kind === "number" ? 5 : h / 2)}" y2="${top + h - (lane.kind === "number" ? 5 : h / 2)}"/>`,
  ];
  out.push(...(lane.kind === "number" ? numberCells(l, lane, top, h) : bandCells(l, lane, top, h)));
  out.push(`</g>`);
  return out;
}

/** Where a cell's label goes: where the value differs from the cell in the column before. Its width: the run. */
function runs(lane: ChartLane): Map<ChartCell, number> {
  const starts = new Map<ChartCell, number>();
  let start: ChartCell | undefined;
  for (const [k, c] of lane.cells.entries()) {
    const prev = lane.cells[k - 1];
    if (!prev || prev.column !== c.column - 1 || prev.value !== c.value) {
      start = c;
      starts.set(c, 1);
    } else starts.set(start!, starts.get(start!)! + 1);
  }
  return starts;
}

/** Bands: yes filled, no outlined, any other value a labelled band. */
function bandCells(l: Layout, lane: ChartLane, top: number, h: number): string[] {
  const out: string[] = [];
  const labels: string[] = [];
  const starts = runs(lane);
  for (const c of lane.cells) {
    const x = l.xl(c.column);
    if (isBlankValue(c.value)) {
      out.push(`${cellOpen(l, lane, c, "blank")}</g>`);
      continue;
    }
    const cls = c.value === "yes" ? "yes" : c.value === "no" ? "no" : "valued";
    out.push(
      `${cellOpen(l, lane, c, cls)}<rect class="band ${cls}" x="${x + (cls === "no" ? 1.5 : 0)}" y="${top + 3}" width="${l.colW - (cls === "no" ? 3 : 0)}" height="${h - 6}"/></g>`,
    );
    const run = starts.get(c);
    if (cls === "valued" && run !== undefined)
      labels.push(
        `<text class="band-value" data-column="${c.column}" x="${x + 4}" y="${top + h / 2 + 4}">${esc(fit(c.value, run * l.colW))}</text>`,
      );
  }
  return [...out, ...labels];
}

/** Numbers: a point per cell on the lane's own scale (from 0), a step line through runs of columns, a label where the value changes. */
function numberCells(l: Layout, lane: ChartLane, top: number, h: number): string[] {
  const nums = (c: ChartCell) => [...new Set(c.readings.map((r) => r.value))].filter((v) => !isBlankValue(v)).map(Number);
  const all = lane.cells.flatMap(nums);
  const lo = Math.min(0, ...all);
  const hi = Math.max(lo + 1, ...all);
  const y = (v: number) => top + h - 5 - ((v - lo) / (hi - lo)) * (h - 15);
  const out: string[] = [];
  const starts = runs(lane);
  let path = "";
  let prevColumn = -2;
  for (const c of lane.cells) {
    const vs = nums(c);
    if (vs.length === 0) {
      out.push(`${cellOpen(l, lane, c, "blank")}</g>`);
      prevColumn = -2;
      continue;
    }
    const yy = y(vs[0]!);
    path += prevColumn === c.column - 1 ? `V${yy}H${l.xl(c.column + 1)}` : `M${l.xl(c.column)} ${yy}H${l.xl(c.column + 1)}`;
    prevColumn = c.column;
    const points = vs.map((v) => `<circle class="point" cx="${l.xc(c.column)}" cy="${y(v)}" r="2.5"/>`).join("");
    const run = starts.get(c);
    const label =
      run === undefined
        ? ""
        : `<text class="value" x="${l.xl(c.column) + 3}" y="${Math.min(...vs.map(y)) - 4}">${esc(fit(c.value, run * l.colW))}</text>`;
    out.push(`${cellOpen(l, lane, c, "number")}${points}${label}</g>`);
  }
  return path ? [`<path class="step" d="${path}"/>`, ...out] : out;
}
