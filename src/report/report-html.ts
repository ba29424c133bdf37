/**
 * `timeline.html`: the timeline as one self-contained page (inline CSS and SVG, no script, no
 * network — its Content-Security-Policy allows nothing else). Three parts: the groups table, the
 * chart of the measured rows per release (chart-rows.ts, chart-svg.ts), and each change point (group
 * i → group i+1, oldest first, as timeline.md lists them) with the rows that changed, the sentences and
 * witnesses, and the code diff of the two groups' first lifted modules. The chart, the tables and the
 * sentences all come from timeline.json's change points (timeline.changes): the modules are read for
 * the code diff only. Everything taken from the timeline or the modules is escaped.
 */
import { readFileSync } from "node:fs";
import { timelineChart } from "./chart-svg.js";
import { changeBetween, chartModel, type ChartModel } from "./chart-rows.js";
import { codeDiff } from "../diff/code-diff.js";
import { summarySentence } from "../diff/code-summary.js";
import { esc, escProse } from "./html.js";
import type { RoutinePack } from "../routines/pack.js";
import { behaviourVerdict, noDifferenceFound, type WitnessReport } from "../diff/behaviour.js";
import { groupMembers, verifiedCell, type Change, type Group, type Release, type Timeline } from "../timeline-model.js";

export interface HtmlOptions {
  /** Reads a lifted module (default: from disk). */
  read?: (path: string) => string;
  /** The page's title (default: the routine's name and "timeline"). */
  title?: string;
  /** The routine whose modules the timeline holds. */
  pack: RoutinePack;
}

interface Lifted {
  text: string;
  problem?: string;
}

export function timelineHtml(t: Timeline, opts: HtmlOptions): string {
  const read = opts.read ?? ((p: string) => readFileSync(p, "utf8"));
  const pack = opts.pack;
  const lifted = new Map<string, Lifted | null>();
  const load = (r: Release | undefined): Lifted | null => {
    if (!r?.module) return null;
    if (!lifted.has(r.module)) {
      let text: string;
      try {
        text = read(r.module);
        lifted.set(r.module, { text });
      } catch (e) {
        lifted.set(r.module, { text: "", problem: `cannot read the lifted module: ${(e as Error).message}` });
      }
    }
    return lifted.get(r.module)!;
  };

  const members = groupMembers(t);
  const firstLifted = (i: number) => members[i]!.find((r) => r.module);
  const model = chartModel(t);

  const notLifted = t.releases.filter((r) => r.routineHash === null).length;
  const title = opts.title ?? `${pack.title.charAt(0).toUpperCase()}${pack.title.slice(1)} timeline`;
  const summary = [
    `${t.releases.length} releases`,
    `${t.groups.length} groups`,
    `${Math.max(0, t.groups.length - 1)} change points`,
    ...(notLifted ? [`${notLifted} not lifted`] : []),
  ].join(" · ");

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p class="summary">${esc(summary)}</p>
<nav><a href="#groups">groups</a> <a href="#chart">measured rows</a> <a href="#changes">changes</a></nav>
</header>
<main>
<section id="groups">
<h2>Groups</h2>
<p class="note">Consecutive releases whose lifted routine is the same code (sha256 of the lifted module without its origin).</p>
${groupsTable(t, members)}
</section>
<section id="chart">
<h2>Measured rows per release</h2>
<p class="note">Each lane is a row the change points measured on the modules (the tables below show the rows that changed). A release has its group's values: measured against the group before it and the group after it, both shown, as “earlier | later”, where they differ. Yes/no rows are bands (filled: yes, outlined: no), numbers a step line on the lane's own scale labelled where the value changes, other values labelled bands. Dashed lines are change points; hatched columns are releases not lifted, or whose group no change point measured.</p>
<div class="chart-wrap">
${timelineChart(model)}
</div>
${leftOutTable(model)}
</section>
<section id="changes">
<h2>Changes</h2>
${
  t.groups.length < 2
    ? `<p class="note">One group: the routine did not change.</p>`
    : t.groups
        .slice(1)
        .map((g, k) => change(t.groups[k]!, g, k + 1, firstLifted(k), firstLifted(k + 1), load, changeBetween(t, k)))
        .join("\n")
}
</section>
</main>
</body>
</html>
`;
}

function span(g: Group): string {
  return g.first === g.last ? g.first : `${g.first} – ${g.last}`;
}

function groupsTable(t: Timeline, members: Release[][]): string {
  const rows = t.groups.map((g, i) => {
    const rel = members[i]!;
    const verified =
      rel.length > 0 && rel.every((r) => r.verified)
        ? [...new Set(rel.map((r) => verifiedCell(r.verified!)))].join(", ")
        : g.error
          ? "—"
          : "not verified";
    const count = g.releases.length > 1 ? ` <span class="count">(${g.releases.length})</span>` : "";
    const list = g.releases.length > 1 ? `<div class="releases">${esc(g.releases.join(", "))}</div>` : "";
    const platforms = [...new Set(rel.map((r) => r.platform))].join(", ");
    const anchor = i > 0 ? ` <a class="to-change" href="#change-${i}" title="what changed">Δ</a>` : "";
    return `<tr class="${g.error ? "error" : ""}" id="group-${i}">
<td class="num">${i + 1}</td>
<td class="span">${esc(span(g))}${count}${anchor}${list}</td>
<td class="platform">${esc(platforms)}</td>
<td class="hash">${g.routineHash ? `<code title="${esc(g.routineHash)}">${esc(g.routineHash.slice(0, 12))}</code>` : "—"}</td>
<td class="signature">${g.signature ? esc(g.signature).replace(/ \+ /g, "<br>+ ") : "—"}</td>
<td class="verified">${esc(verified)}</td>
<td class="err">${g.error ? esc(g.error) : ""}</td>
</tr>`;
  });
  return `<table class="groups">
<thead><tr><th>#</th><th>releases</th><th>platform</th><th>routine</th><th>signature / variant</th><th>verified</th><th>error</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>`;
}

/** The rows of timeline.json the chart leaves out, each with why; nothing when it draws them all. */
function leftOutTable(m: ChartModel): string {
  if (m.leftOut.length === 0) return "";
  return `<table class="left-out">
<thead><tr><th>row not drawn</th><th>why</th></tr></thead>
<tbody>
${m.leftOut.map((r) => `<tr data-feature="${esc(r.feature)}"><td>${esc(r.feature)}</td><td class="why">${esc(r.reason)}</td></tr>`).join("\n")}
</tbody>
</table>`;
}

function change(
  from: Group,
  to: Group,
  index: number,
  a: Release | undefined,
  b: Release | undefined,
  load: (r: Release | undefined) => Lifted | null,
  c: Change | undefined,
): string {
  const day = b?.published?.slice(0, 10);
  const date = day ? ` <span class="date">${esc(day)}</span>` : "";
  const head = `<h3><span class="from">${esc(span(from))}</span> → <span class="to">${esc(span(to))}</span>${date}</h3>`;
  const attrs = `class="change" id="change-${index}" data-from="${esc(from.last)}" data-to="${esc(to.first)}"`;
  const la = load(a);
  const lb = load(b);
  const missing = [
    [from, a, la],
    [to, b, lb],
  ].filter(([, r, l]) => !r || !l || (l as Lifted).problem) as Array<[Group, Release | undefined, Lifted | null]>;
  if (missing.length > 0 || !a || !b || !la || !lb) {
    const why = missing.map(([g, , l]) => `<li>${esc(span(g))}: ${esc(g.error ?? l?.problem ?? "no lifted module")}</li>`).join("");
    return `<section ${attrs}>\n${head}\n<p class="note">No code, semantic or behaviour diff: a side was not lifted.</p>\n<ul class="why">${why}</ul>\n</section>`;
  }
  // The rows measured at this change point (timeline.json), as the chart draws them.
  const rows = (c?.semantics ?? []).filter((r) => r.changed);
  const sem = !c?.semantics
    ? `<p class="note no-rows">No measured rows: ${esc(c ? (c.note ?? "the change point was not compared") : "the change point was not compared")}.</p>`
    : rows.length
      ? `<table class="semantics">
<thead><tr><th>weight / feature</th><th>${esc(a.version)}</th><th>${esc(b.version)}</th></tr></thead>
<tbody>
${rows.map((r) => `<tr class="sem-changed" data-feature="${esc(r.feature)}"><td>${esc(r.feature)}</td><td class="before">${esc(r.before)}</td><td class="after">${esc(r.after)}</td></tr>`).join("\n")}
</tbody>
</table>`
      : `<p class="note">No measured row changed (the code did).</p>`;
  const code = codeDiff({ label: `${a.version} (${a.platform})`, text: la.text }, { label: `${b.version} (${b.platform})`, text: lb.text });
  const lines = code.diff.split("\n");
  const added = lines.filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
  const removed = lines.filter((l) => l.startsWith("-") && !l.startsWith("---")).length;
  const words = summarySentence(code.summary);
  const diff = code.changed
    ? `${words ? `<p class="code-summary">${esc(words)}</p>\n` : ""}<details class="code-diff">
<summary>code diff ${esc(a.version)} → ${esc(b.version)} <span class="add">+${added}</span> <span class="del">−${removed}</span></summary>
<pre class="diff">${lines.map(diffLine).join("")}</pre>
</details>`
    : `<p class="note">No code change.</p>`;
  return `<section ${attrs}>\n${head}\n${sem}\n${behaviour(c, a.version, b.version)}\n${diff}\n</section>`;
}

/** One line per difference, then each witness with its inputs and both answers, in a collapsed section. */
function behaviour(c: Change | undefined, va: string, vb: string): string {
  if (!c) return "";
  const b = c.behaviour;
  if (!b) return `<p class="note behaviour-none">Behaviour not compared: ${esc(c.note ?? "no lifted module")}</p>`;
  const sentences = b.sentences.length ? `<ul class="sentences">${b.sentences.map((x) => `<li>${escProse(x)}</li>`).join("")}</ul>` : "";
  // Without a witness the verdict comes first, whatever else is said (a field newly read is no difference).
  if (b.changed.length === 0)
    return `<p class="note behaviour-none" data-searched="${b.searched}" data-verdict="${behaviourVerdict(b)}">${esc(noDifferenceFound(b))}.</p>${sentences}`;
  const rows = b.changed.map(
    (w) =>
      `<tr class="witness" data-function="${esc(w.function)}"><td class="query"><code>${esc(w.function)}(${esc(JSON.stringify(w.query).slice(0, 200))})</code><br><span class="tools">${esc(tools(w))}</span></td><td class="before">${esc(answer(w.before))}</td><td class="after">${esc(answer(w.after))}</td></tr>`,
  );
  return `${sentences}
<details class="behaviour" data-changed="${b.changed.length}" data-searched="${b.searched}">
<summary>behaviour: ${b.changed.length} witness${b.changed.length === 1 ? "" : "es"} in ${b.searched} cases (${b.seconds} s)</summary>
<table class="behaviour">
<thead><tr><th>call</th><th>${esc(va)}</th><th>${esc(vb)}</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
</details>`;
}

function tools(w: WitnessReport): string {
  const d = w.deferred.map((t) => t.name).join(", ") || "none";
  return `deferred: ${d}${w.loaded.length ? `; loaded: ${w.loaded.map((t) => t.name).join(", ")}` : ""}${w.maxResults !== undefined ? `; maxResults ${w.maxResults}` : ""}`;
}

function answer(v: unknown): string {
  return JSON.stringify(v).slice(0, 400);
}

function diffLine(l: string): string {
  // The patch's "=====" rule and trailing newline say nothing.
  if (l === "" || /^={5,}$/.test(l)) return "";
  const cls =
    l.startsWith("+++") || l.startsWith("---")
      ? "file"
      : l.startsWith("@@")
        ? "hunk"
        : l.startsWith("+")
          ? "add"
          : l.startsWith("-")
            ? "del"
            : l.startsWith("\\")
              ? "meta"
              : "ctx";
  return `<span class="${cls}">${esc(l)}</span>`;
}

const CSS = `
:root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --bg: #ffffff; --soft: #f6f8fa; --accent: #0969da; --add: #1a7f37; --add-bg: #dafbe1; --del: #cf222e; --del-bg: #ffebe9; --band: #2da44e; --valued: #8250df; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 1180px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 20px; border-bottom: 1px solid var(--line); padding-bottom: 12px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 6px; }
h3 { font-size: 15px; margin: 22px 0 8px; }
.summary { margin: 0; color: var(--muted); }
nav { margin-top: 6px; }
nav a { margin-right: 14px; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
.note { color: var(--muted); margin: 4px 0 10px; font-size: 13px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num { color: var(--muted); width: 2em; }
td.span { white-space: nowrap; font-weight: 600; }
.count { color: var(--muted); font-weight: 400; }
.releases { color: var(--muted); font-weight: 400; font-size: 12px; }
.to-change { font-weight: 400; margin-left: 4px; }
code, pre, td.hash { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
td.signature { font-size: 12px; white-space: nowrap; }
td.verified, td.platform { white-space: nowrap; }
tr.error td { background: #fff8f7; }
td.err { color: var(--del); }
.chart-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; padding: 6px 0; }
svg.chart { display: block; font-family: inherit; }
svg .group-bg { fill: transparent; }
svg .group-bg.odd { fill: #f3f6fa; }
svg .version { font-size: 12px; font-weight: 600; fill: var(--fg); }
svg .release-tick { stroke: #e3e7eb; stroke-width: 1; }
svg .change-line { stroke: var(--accent); stroke-width: 1.5; stroke-dasharray: 4 3; }
svg .section { font-size: 12px; font-weight: 700; fill: var(--muted); text-transform: uppercase; letter-spacing: .05em; }
svg .lane-label { font-size: 12px; fill: var(--fg); }
svg .baseline { stroke: #eaeef2; stroke-width: 1; }
svg .step { fill: none; stroke: var(--accent); stroke-width: 2; }
svg .point { fill: var(--accent); }
svg .value { font-size: 10px; fill: var(--fg); font-weight: 600; }
svg .band.yes { fill: var(--band); opacity: .75; }
svg .band.no { fill: none; stroke: #afb8c1; stroke-width: 1; }
svg .band.valued { fill: var(--valued); opacity: .22; }
svg .cell.differs .band, svg .cell.differs .point { stroke: #9a6700; stroke-width: 1.5; stroke-dasharray: 3 2; }
svg .band-value { font-size: 10px; fill: #3b2a66; }
svg .hatch-bg { fill: #fbeff0; }
svg .hatch-line { stroke: #e5a5ab; stroke-width: 2; }
svg .not-lifted-label { font-size: 10px; fill: var(--del); font-weight: 600; }
svg .hatch-soft-bg { fill: #f6f8fa; }
svg .hatch-soft-line { stroke: #d0d7de; stroke-width: 2; }
svg .not-measured-label { font-size: 10px; fill: var(--muted); font-weight: 600; }
table.left-out { width: auto; margin-top: 10px; }
table.left-out td.why { color: var(--muted); }
section.change { border: 1px solid var(--line); border-radius: 6px; padding: 4px 14px 12px; margin: 14px 0; }
section.change h3 { margin-top: 10px; }
section.change h3 .date { color: var(--muted); font-weight: 400; margin-left: 6px; }
table.semantics { width: auto; min-width: 60%; margin-bottom: 8px; }
table.semantics td.before { color: var(--del); background: var(--del-bg); }
table.semantics td.after { color: var(--add); background: var(--add-bg); }
details summary { cursor: pointer; color: var(--accent); margin: 6px 0; }
summary .add { color: var(--add); } summary .del { color: var(--del); }
pre.diff { margin: 0; padding: 8px 0; background: var(--soft); border-radius: 6px; overflow-x: auto; line-height: 1.45; }
pre.diff span { display: block; padding: 0 10px; white-space: pre; }
pre.diff .add { background: var(--add-bg); color: #116329; }
pre.diff .del { background: var(--del-bg); color: #82071e; }
pre.diff .hunk { color: var(--valued); background: #f3efff; }
pre.diff .file { color: var(--muted); }
ul.why { color: var(--del); margin: 0; }
table.behaviour { margin: 4px 0 8px; }
table.behaviour td.query { white-space: nowrap; }
table.behaviour td.before, table.behaviour td.after { width: 42%; }
ol.results { margin: 0; padding-left: 1.6em; }
ol.results li { margin: 0; }
ol.results .score { color: var(--muted); font-variant-numeric: tabular-nums; }
td.before li.gone code { color: var(--del); background: var(--del-bg); }
td.after li.new code { color: var(--add); background: var(--add-bg); }
span.none { color: var(--muted); }
`;
