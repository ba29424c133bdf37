/**
 * `check`'s output: a table per query (the tool, its rank per release, "—" when not returned), then the tools
 * no query of their own found; as text for a terminal, as Markdown for a PR comment, or as JSON.
 */
import { terminalSafe as safe } from "../safe-text.js";
import { byPlace, type CheckResult, type CheckRow, type Unfound } from "./check.js";
import { allowedText, type ExpectationOutcome, type ExpectationResult } from "./expectations.js";
import { changed, type Baseline, type BaselineCell, type BaselineItem } from "./baseline.js";
import { termText } from "./explain.js";
import { missedTermText } from "./explain-missed.js";
import { suggestionText } from "./suggest.js";

const MISSING = "—";

/** The rows of each query, in the order the queries were asked. */
function byQuery(rows: CheckRow[]): Map<string, CheckRow[]> {
  const m = new Map<string, CheckRow[]>();
  for (const r of rows) m.set(r.query, [...(m.get(r.query) ?? []), r]);
  return m;
}

const rankText = (r: number | null) => (r === null ? MISSING : String(r));

/** Rows of tools no release returned, listed one by one up to this many; past it they are counted instead. */
const UNRETURNED_ROWS = 3;

/**
 * A query's rows as shown: those some release returned; of the rest, the tools the query is for — listed when
 * there are few, else counted (a query of the user's own is for every tool, and most rows of a large server
 * would be all dashes). Tools the query is not for and no release returned are in the JSON only.
 */
function shownRows(rows: CheckRow[], owners: string[]): { shown: CheckRow[]; unreturned: number } {
  const isReturned = (row: CheckRow) => Object.values(row.ranks).some((x) => x !== null);
  const returned = rows.filter(isReturned);
  const mine = new Set(owners);
  const unreturned = rows.filter((row) => !isReturned(row) && mine.has(row.tool));
  return unreturned.length > UNRETURNED_ROWS
    ? { shown: returned, unreturned: unreturned.length }
    : { shown: [...returned, ...unreturned], unreturned: 0 };
}

const unreturnedText = (n: number) => `${n} more tools, returned by no release`;

/** The reason line: once when every release gives the same, else per release. */
function reasonText(u: Unfound): string {
  const texts = u.releases.map((v) => u.reasons[v] ?? "");
  if (texts.every((t) => t === texts[0])) return `on ${u.releases.join(", ")}: ${texts[0]}`;
  return u.releases.map((v, i) => `on ${v}: ${texts[i]}`).join("; ");
}

/** Tools that share one reason, told once past this many. */
const SHARED_REASON = 3;

/**
 * The unfound tools by reason, in the order first met: a query of the user's own can miss most of a server
 * for one reason (no word of it in their names or descriptions), which is said once for them all.
 */
function byReason(unfound: Unfound[]): Array<{ reason: string; tools: string[] }> {
  const groups = new Map<string, string[]>();
  for (const u of unfound) {
    const reason = reasonText(u);
    groups.set(reason, [...(groups.get(reason) ?? []), u.tool]);
  }
  return [...groups].flatMap(([reason, tools]) =>
    tools.length >= SHARED_REASON ? [{ reason, tools }] : tools.map((t) => ({ reason, tools: [t] })),
  );
}

/** --explain's lines under a row: per release, the score and each word's. */
function explainLines(row: CheckRow): string[] {
  return Object.entries(row.explain ?? {}).map(([v, e]) => `${v}: score ${e.score}; ${e.terms.map(termText).join("; ")}`);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The summary line: the server, its tools, the queries and releases, and how many expectations are met. */
function header(r: CheckResult): string {
  const s = r.summary;
  const e = s.expectations;
  const expectations = e.total ? `, ${e.met} of ${plural(e.total, "expectation")} met on every release` : "";
  const loaded = s.loaded ? ` (${s.loaded} always loaded)` : "";
  return `${r.server}: ${plural(s.tools, "tool")}${loaded}, ${plural(s.queries, "query", "queries")}, ${plural(s.releases, "release")}${expectations}`;
}

/** The legend: what — means, and the cut each release makes at its max_results (measured by a probe). */
function legend(r: CheckResult): string {
  const cuts = [...new Set(r.releases.map((x) => x.maxResults))];
  if (!r.releases.length || cuts.includes(null))
    return `${MISSING}: not returned (a release returns only its best few tools for a query, its max_results)`;
  const cut =
    cuts.length === 1
      ? `each release returns at most ${cuts[0]} tools for a query`
      : `a release returns at most ${r.releases.map((x) => `${x.maxResults} (${x.version})`).join(", ")} tools for a query`;
  return `${MISSING}: not returned; ${cut} (its max_results), so a tool placed lower reads ${MISSING}`;
}

/** Whether a row is another server's tool (--with), shown where it takes a place. */
const competitor = (r: CheckResult, row: CheckRow) => r.competitors.includes(row);

/** A row's tool as shown: as toolLabel, and marked when it is another server's. */
const rowLabel = (r: CheckResult, row: CheckRow) => `${toolLabel(r, row.tool)}${competitor(r, row) ? " (--with)" : ""}`;

/**
 * Each query's table: the server's returned tools and the other servers' (--with) that some release returned,
 * best placed first, then the server's tools the query is for that none returned (listed when few, else counted).
 */
function queryTables(r: CheckResult): Array<{ query: string; shown: CheckRow[]; unreturned: number }> {
  const owners = new Map(r.queries.map((q) => [q.text, q.owners]));
  const others = byQuery(r.competitors);
  const keys = r.releases.map((x) => x.version);
  return [...byQuery(r.results)].map(([query, rows]) => {
    const { shown, unreturned } = shownRows(rows, owners.get(query) ?? []);
    const isReturned = (row: CheckRow) => Object.values(row.ranks).some((x) => x !== null);
    const placed = [...shown.filter(isReturned), ...(others.get(query) ?? [])].sort(byPlace(keys));
    return { query, shown: [...placed, ...shown.filter((row) => !isReturned(row))], unreturned };
  });
}

/** A tool as shown: its client name, and the name the server lists when the client's renaming changed it. */
function toolLabel(r: CheckResult, tool: string): string {
  const original = r.renamed[tool];
  return original === undefined ? tool : `${tool} (${original})`;
}

/** An expectation's cell on one release: met or missed with the rank there; blank where it is not judged. */
function outcomeText(o: ExpectationOutcome | undefined, marks: { met: string; missed: string }): string {
  if (!o) return "·";
  return `${o.met ? marks.met : marks.missed} ${rankText(o.rank)}`;
}

/** Per release, a line; once for every release that says the same. */
function perRelease(texts: Record<string, string>): string {
  const groups = new Map<string, string[]>();
  for (const [v, t] of Object.entries(texts)) groups.set(t, [...(groups.get(t) ?? []), v]);
  return [...groups].map(([t, vs]) => `on ${vs.join(", ")}: ${t}`).join("; ");
}

const expectationName = (e: ExpectationResult) => `${JSON.stringify(e.query)} => ${e.tool}`;

function expectationLines(r: CheckResult): string[] {
  if (!r.expectations.length) return [];
  const keys = r.releases.map((x) => x.version);
  const marks = { met: "met", missed: "missed" };
  const table = [
    ["query", "tool", "allowed", ...keys],
    ...r.expectations.map((e) => [
      JSON.stringify(e.query),
      toolLabel(r, e.tool),
      allowedText(e.rank),
      ...keys.map((k) => outcomeText(e.results[k], marks)),
    ]),
  ].map((cells) => cells.map(safe));
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const out = ["expectations (met: placed no lower than allowed on that release; ·: not judged there)"];
  for (const row of table) out.push(`  ${row.map((c, i) => c.padEnd(widths[i]!)).join("  ")}`.trimEnd());
  const missed = r.expectations.filter((e) => Object.keys(e.reasons).length);
  if (missed.length) {
    out.push("  missed:");
    for (const e of missed) out.push(`    ${safe(expectationName(e))} ${safe(perRelease(e.reasons))}`);
  }
  return [...out, ""];
}

/** --explain's lines on missed tools, per (query, tool): each release's word breakdown, once for releases that agree. */
function missedLines(r: CheckResult): string[] {
  return (r.missed ?? []).map((m) => {
    const texts = Object.fromEntries(
      Object.entries(m.explain).map(([v, x]) => [v, `score ${x.score}; ${x.terms.map(missedTermText).join("; ")}`]),
    );
    return `${JSON.stringify(m.query)} missed ${toolLabel(r, m.tool)}: ${perRelease(texts)}`;
  });
}

/** --suggest's lines: per missed expectation, its measured edits, best first. */
function suggestionLines(r: CheckResult): string[] {
  return (r.suggestions ?? []).flatMap((s) => [
    `${JSON.stringify(s.query)} => ${toolLabel(r, s.tool)}:`,
    ...(s.edits.length ? s.edits.map((e) => `  ${suggestionText(e)}`) : ["  no edit tried places it higher on any release"]),
  ]);
}

function adviceLines(r: CheckResult): string[] {
  const out: string[] = [];
  const missed = missedLines(r);
  if (missed.length) out.push("missed, per query word (measured with the tool alone; --explain)", ...missed.map((l) => `  ${l}`), "");
  const sugg = suggestionLines(r);
  if (sugg.length)
    out.push(
      "suggestions (edits measured on every release the expectation is judged on: rank before → after; best first)",
      ...sugg.map((l) => `  ${l}`),
      "",
    );
  return out;
}

/** `2 → 1 ↑`: the old rank, the new, and which way it moved; `·` where the old rank is not known. */
function cellText(c: BaselineCell | undefined): string {
  if (!c) return "·";
  const moved = (c.new ?? Infinity) < (c.old ?? Infinity) ? " ↑" : (c.new ?? Infinity) > (c.old ?? Infinity) ? " ↓" : "";
  return `${rankText(c.old)} → ${rankText(c.new)}${moved}`;
}

function baselineHead(b: Baseline): string {
  const what = b.kind === "tools" ? "its tools ranked now" : b.kind === "server" ? "the server's tools ranked now" : "a saved check";
  const cells = b.improved + b.regressed + b.unchanged;
  return `baseline ${b.source} (${what}): ${b.improved} improved, ${b.regressed} regressed, ${b.unchanged} unchanged of ${plural(cells, "rank")} compared`;
}

/** Expectations are all shown; without them, only the (query, tool) pairs whose rank moved, the others counted. */
function baselineShown(r: CheckResult, b: Baseline): { shown: BaselineItem[]; hidden: number } {
  const shown = r.expectations.length ? b.items : b.items.filter(changed);
  return { shown, hidden: b.items.length - shown.length };
}

function baselineLines(r: CheckResult): string[] {
  const b = r.baseline;
  if (!b) return [];
  const keys = r.releases.map((x) => x.version);
  const { shown, hidden } = baselineShown(r, b);
  const withBar = r.expectations.length > 0;
  const table = [
    ["query", "tool", ...(withBar ? ["allowed"] : []), ...keys],
    ...shown.map((i) => [
      JSON.stringify(i.query),
      toolLabel(r, i.tool),
      ...(withBar ? [allowedText(i.rank ?? null)] : []),
      ...keys.map((k) => cellText(i.ranks[k])),
    ]),
  ].map((cells) => cells.map(safe));
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const out = [safe(baselineHead(b))];
  if (shown.length) for (const row of table) out.push(`  ${row.map((c, i) => c.padEnd(widths[i]!)).join("  ")}`.trimEnd());
  if (hidden) out.push(`  ${plural(hidden, "more (query, tool) pair", "more (query, tool) pairs")} ranked as before`);
  return [...out, ""];
}

export function formatText(r: CheckResult): string {
  const keys = r.releases.map((x) => x.version);
  const out = [
    safe(header(r)),
    safe(legend(r)),
    ...r.releases.map((x) => `  ${safe(x.version)} (${safe(x.platform)}): ${safe(x.module)}`),
    ...r.warnings.map((w) => `warning: ${safe(w)}`),
    "",
    ...expectationLines(r),
    ...adviceLines(r).map(safe),
    ...baselineLines(r),
  ];
  const tables = queryTables(r);
  const toolWidth = Math.max(4, ...tables.flatMap((t) => t.shown.map((x) => safe(rowLabel(r, x)).length)));
  const widths = keys.map((k) => Math.max(safe(k).length, 2));
  const line = (tool: string, cells: string[]) =>
    `  ${tool.padEnd(toolWidth)}  ${cells.map((c, i) => c.padEnd(widths[i]!)).join("  ")}`.trimEnd();
  for (const { query, shown, unreturned } of tables) {
    out.push(safe(JSON.stringify(query)), line("tool", keys.map(safe)));
    for (const row of shown) {
      out.push(
        line(
          safe(rowLabel(r, row)),
          keys.map((k) => rankText(row.ranks[k] ?? null)),
        ),
      );
      for (const e of explainLines(row)) out.push(`      ${safe(e)}`);
    }
    if (unreturned) out.push(`  ${unreturnedText(unreturned)}`);
    out.push("");
  }
  if (r.loaded.length) out.push(`always loaded (not searched): ${r.loaded.map((t) => safe(toolLabel(r, t))).join(", ")}`);
  if (r.unfound.length) {
    out.push("unfound: returned by none of their own queries");
    for (const { reason, tools } of byReason(r.unfound)) {
      if (tools.length === 1) out.push(`  ${safe(toolLabel(r, tools[0]!))} ${safe(reason)}`);
      else out.push(`  ${tools.length} tools ${safe(reason)}:`, ...tools.map((t) => `    ${safe(toolLabel(r, t))}`));
    }
  } else out.push(`every tool is returned by one of its own queries on every release${r.expectations.length ? " it is judged on" : ""}`);
  return out.join("\n") + "\n";
}

/** Text inside a Markdown table cell or code span: no pipes, backticks or line breaks to break out of it. */
function cell(s: string): string {
  return s
    .replace(/[\r\n]+/g, " ")
    .replace(/\|/g, "\\|")
    .replace(/`/g, "'");
}

function expectationMarkdown(r: CheckResult): string[] {
  if (!r.expectations.length) return [];
  const keys = r.releases.map((x) => x.version);
  const marks = { met: "✅", missed: "❌" };
  const e = r.summary.expectations;
  const out = [
    `**Expectations: ${e.met} of ${e.total} met on every release.**`,
    "",
    `| query | tool | allowed | ${keys.map(cell).join(" | ")} |`,
    `| --- | --- | --- | ${keys.map(() => "---:").join(" | ")} |`,
    ...r.expectations.map(
      (x) =>
        `| \`${cell(x.query)}\` | ${mdTool(r, x.tool)} | ${allowedText(x.rank)} | ${keys.map((k) => outcomeText(x.results[k], marks)).join(" | ")} |`,
    ),
  ];
  const missed = r.expectations.filter((x) => Object.keys(x.reasons).length);
  if (missed.length) out.push("", ...missed.map((x) => `- \`${cell(x.query)}\` → ${mdTool(r, x.tool)} ${cell(perRelease(x.reasons))}`));
  return [...out, ""];
}

/** A tool in Markdown: its client name as code, and the server's name for it where the renaming changed it. */
function mdTool(r: CheckResult, tool: string): string {
  const original = r.renamed[tool];
  return `\`${cell(tool)}\`${original === undefined ? "" : ` (\`${cell(original)}\`)`}`;
}

function baselineMarkdown(r: CheckResult): string[] {
  const b = r.baseline;
  if (!b) return [];
  const keys = r.releases.map((x) => x.version);
  const { shown, hidden } = baselineShown(r, b);
  const withBar = r.expectations.length > 0;
  const out = [`**${cell(baselineHead(b)).replace(/^baseline/, "Baseline")}.**`, ""];
  if (shown.length)
    out.push(
      `| query | tool | ${withBar ? "allowed | " : ""}${keys.map(cell).join(" | ")} |`,
      `| --- | --- | ${withBar ? "--- | " : ""}${keys.map(() => "---:").join(" | ")} |`,
      ...shown.map(
        (i) =>
          `| \`${cell(i.query)}\` | ${mdTool(r, i.tool)} | ${withBar ? `${allowedText(i.rank ?? null)} | ` : ""}${keys.map((k) => cellText(i.ranks[k])).join(" | ")} |`,
      ),
    );
  if (hidden) out.push("", `${plural(hidden, "more (query, tool) pair", "more (query, tool) pairs")} ranked as before.`);
  return [...out, ""];
}

function adviceMarkdown(r: CheckResult): string[] {
  const out: string[] = [];
  const sugg = r.suggestions ?? [];
  if (sugg.length) {
    out.push("**Suggested edits** (each measured on every release the expectation is judged on; best first):", "");
    for (const s of sugg) {
      out.push(`- \`${cell(s.query)}\` → ${mdTool(r, s.tool)}`);
      if (!s.edits.length) out.push("  - no edit tried places it higher on any release");
      for (const e of s.edits) out.push(`  - ${e.met ? "✅ " : ""}${cell(suggestionText(e))}`);
    }
    out.push("");
  }
  const missed = missedLines(r);
  if (missed.length)
    out.push("<details><summary>Missed tools, per query word</summary>", "", ...missed.map((l) => `- ${cell(l)}`), "", "</details>", "");
  return out;
}

export function formatMarkdown(r: CheckResult): string {
  const keys = r.releases.map((x) => x.version);
  const out = [`### searchlift check: ${cell(header(r))}`, "", `_${cell(legend(r))}_`, ""];
  for (const w of r.warnings) out.push(`> ⚠️ ${cell(w)}`, "");
  out.push(...expectationMarkdown(r), ...adviceMarkdown(r), ...baselineMarkdown(r));
  if (r.unfound.length) {
    out.push(`**${r.unfound.length} tool${r.unfound.length === 1 ? "" : "s"} not found by their own queries:**`, "");
    for (const { reason, tools } of byReason(r.unfound)) out.push(`- ${tools.map((t) => mdTool(r, t)).join(", ")} ${cell(reason)}`);
  } else out.push(`Every tool is returned by one of its own queries on every release${r.expectations.length ? " it is judged on" : ""}.`);
  out.push("", "<details><summary>Ranks per query</summary>", "");
  for (const { query, shown, unreturned } of queryTables(r)) {
    out.push(`\`${cell(query)}\``, "", `| tool | ${keys.map(cell).join(" | ")} |`, `| --- | ${keys.map(() => "---:").join(" | ")} |`);
    const other = (row: CheckRow) => (competitor(r, row) ? " _(--with)_" : "");
    for (const row of shown)
      out.push(`| ${mdTool(r, row.tool)}${other(row)} | ${keys.map((k) => rankText(row.ranks[k] ?? null)).join(" | ")} |`);
    if (unreturned) out.push("", `${unreturnedText(unreturned)}.`);
    const explained = shown.flatMap((row) => explainLines(row).map((e) => `- \`${cell(row.tool)}\` on ${cell(e)}`));
    if (explained.length) out.push("", ...explained);
    out.push("");
  }
  out.push("</details>");
  return out.join("\n") + "\n";
}

/** The JSON form: the same keys whatever the queries' source (every query has a row for every tool of the server). */
export function jsonForm(r: CheckResult): object {
  return {
    server: r.server,
    summary: r.summary,
    releases: r.releases,
    queries: r.queries,
    results: r.results,
    competitors: r.competitors,
    expectations: r.expectations,
    unfound: r.unfound,
    loaded: r.loaded,
    renamed: r.renamed,
    warnings: r.warnings,
    ...(r.baseline ? { baseline: r.baseline } : {}),
    ...(r.missed ? { missed: r.missed } : {}),
    ...(r.suggestions ? { suggestions: r.suggestions } : {}),
  };
}
