/**
 * `check`'s output: a table per query (the tool, its rank per release, "—" when not returned), then the tools
 * no query of their own found; as text for a terminal, as Markdown for a PR comment, or as JSON.
 */
import { terminalSafe as safe } from "../safe-text.js";
import type { CheckResult, CheckRow, Unfound } from "./check.js";
import { termText } from "./explain.js";

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
 * A query's rows as shown: a query of the user's own belongs to every tool, so most rows of a large server
 * would be all dashes; those are counted in one line rather than listed.
 */
function shownRows(rows: CheckRow[]): { shown: CheckRow[]; unreturned: number } {
  const returned = rows.filter((row) => Object.values(row.ranks).some((x) => x !== null));
  const unreturned = rows.length - returned.length;
  return unreturned > UNRETURNED_ROWS ? { shown: returned, unreturned } : { shown: rows, unreturned: 0 };
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

function header(r: CheckResult): string {
  return `${r.server}: ${r.results.length ? new Set(r.results.map((x) => x.query)).size : 0} queries on ${r.releases.length} release${r.releases.length === 1 ? "" : "s"}`;
}

export function formatText(r: CheckResult): string {
  const keys = r.releases.map((x) => x.version);
  const out = [safe(header(r)), ...r.releases.map((x) => `  ${safe(x.version)} (${safe(x.platform)}): ${safe(x.module)}`), ""];
  const tables = [...byQuery(r.results)].map(([query, rows]) => ({ query, ...shownRows(rows) }));
  const toolWidth = Math.max(4, ...tables.flatMap((t) => t.shown.map((x) => safe(x.tool).length)));
  const widths = keys.map((k) => Math.max(safe(k).length, 2));
  const line = (tool: string, cells: string[]) =>
    `  ${tool.padEnd(toolWidth)}  ${cells.map((c, i) => c.padEnd(widths[i]!)).join("  ")}`.trimEnd();
  for (const { query, shown, unreturned } of tables) {
    out.push(safe(JSON.stringify(query)), line("tool", keys.map(safe)));
    for (const row of shown) {
      out.push(
        line(
          safe(row.tool),
          keys.map((k) => rankText(row.ranks[k] ?? null)),
        ),
      );
      for (const e of explainLines(row)) out.push(`      ${safe(e)}`);
    }
    if (unreturned) out.push(`  ${unreturnedText(unreturned)}`);
    out.push("");
  }
  if (r.loaded.length) out.push(`always loaded (not searched): ${r.loaded.map(safe).join(", ")}`);
  if (r.unfound.length) {
    out.push("unfound: returned by none of their own queries");
    for (const { reason, tools } of byReason(r.unfound)) {
      if (tools.length === 1) out.push(`  ${safe(tools[0]!)} ${safe(reason)}`);
      else out.push(`  ${tools.length} tools ${safe(reason)}:`, ...tools.map((t) => `    ${safe(t)}`));
    }
  } else out.push("every tool is returned by one of its own queries on every release");
  return out.join("\n") + "\n";
}

/** Text inside a Markdown table cell or code span: no pipes, backticks or line breaks to break out of it. */
function cell(s: string): string {
  return s
    .replace(/[\r\n]+/g, " ")
    .replace(/\|/g, "\\|")
    .replace(/`/g, "'");
}

export function formatMarkdown(r: CheckResult): string {
  const keys = r.releases.map((x) => x.version);
  const out = [`### searchlift check: ${cell(header(r))}`, ""];
  if (r.unfound.length) {
    out.push(`**${r.unfound.length} tool${r.unfound.length === 1 ? "" : "s"} not found by their own queries:**`, "");
    for (const { reason, tools } of byReason(r.unfound)) out.push(`- ${tools.map((t) => `\`${cell(t)}\``).join(", ")} ${cell(reason)}`);
  } else out.push("Every tool is returned by one of its own queries on every release.");
  out.push("", "<details><summary>Ranks per query</summary>", "");
  for (const [query, rows] of byQuery(r.results)) {
    out.push(`\`${cell(query)}\``, "", `| tool | ${keys.map(cell).join(" | ")} |`, `| --- | ${keys.map(() => "---:").join(" | ")} |`);
    const { shown, unreturned } = shownRows(rows);
    for (const row of shown) out.push(`| \`${cell(row.tool)}\` | ${keys.map((k) => rankText(row.ranks[k] ?? null)).join(" | ")} |`);
    if (unreturned) out.push("", `${unreturnedText(unreturned)}.`);
    const explained = shown.flatMap((row) => explainLines(row).map((e) => `- \`${cell(row.tool)}\` on ${cell(e)}`));
    if (explained.length) out.push("", ...explained);
    out.push("");
  }
  out.push("</details>");
  return out.join("\n") + "\n";
}

/** The JSON form: releases, results, unfound (and the server and its always-loaded tools). */
export function jsonForm(r: CheckResult): object {
  return { server: r.server, releases: r.releases, results: r.results, unfound: r.unfound, loaded: r.loaded };
}
