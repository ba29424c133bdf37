/**
 * The changelog of the tool search: per change point, newest first, the version and the day it was published,
 * the rules that changed in words (the sentences of the change report, as `diff` says them), one short witness
 * each, and the scoring table of the generation it starts; then the first generation's table, and the releases
 * that were skipped or not lifted, each with why. No code from any release is quoted: only sentences, numbers,
 * the inputs that show a change and what each release answered to them.
 */
import type { Skipped } from "../fetch/fetch.js";
import { summarySentence } from "../diff/code-summary.js";
import type { WitnessReport } from "../diff/behaviour.js";
import { behaviourVerdict, unreachableClause, type Behaviour } from "../diff/behaviour.js";
import { markdownCode, markdownProse, markdownText as text } from "../safe-text.js";
import { groupMembers, publishedDay, type Change, type Group, type Release, type Timeline } from "../track/timeline.js";

/** The heading every changelog starts with, and its tables' header rows (the test of docs/tool-search-changelog.md reads them). */
export const CHANGELOG_TITLE = "# The tool search's changelog";
export const TABLE_HEADERS = {
  generations: "| releases | first published | count | verified |",
  probes: "| probe | before | after |",
  scoring: "| weight or feature | value |",
  notCovered: "| version | platform | why |",
} as const;

export interface ChangelogOptions {
  skipped: Skipped[];
  /** The native platform after 2.1.112. */
  platform: string | null;
  /** The command that regenerates this file. */
  command?: string;
}

/** The longest a witness's answer is shown; the whole answer is in timeline.json. */
const ANSWER_CHARS = 160;
const QUERY_CHARS = 48;
const NAMES = 6;

export function changelogMarkdown(t: Timeline, o: ChangelogOptions): string {
  const members = groupMembers(t);
  const lifted = t.releases.filter((r) => r.routineHash !== null);
  const first = t.releases[0]?.version;
  const last = t.releases.at(-1)?.version;
  const generations = t.groups.filter((g) => g.routineHash !== null).length;
  const lines = [
    CHANGELOG_TITLE,
    "",
    `${t.releases.length} release${t.releases.length === 1 ? "" : "s"} of Claude Code${first ? `, ${text(first)} to ${text(last!)}` : ""} (the cli.js package up to 2.1.112${o.platform ? `, the ${text(o.platform)} build after` : ""}): ${lifted.length} lifted${lifted.every((r) => r.verified) ? " and verified" : ""}, ${generations} generation${generations === 1 ? "" : "s"} of the tool search, ${t.changes?.length ?? 0} change point${t.changes?.length === 1 ? "" : "s"}.`,
    "",
    "Each change point below names the release where the tool search's code changed and the day it was published, says each rule that changed in words, with one input that shows it (the call, the tools given, and what the release before and the release after answered), and gives the scoring table of the generation it starts: what each kind of match adds, its caps and features, as the probes measured them on the lifted modules (the rows `diff` shows). Nothing here is code from a release.",
    ...(o.command ? ["", `Regenerate with \`${o.command}\`.`] : []),
  ];

  lines.push("", "## Generations", "", TABLE_HEADERS.generations, "|---|---|---|---|");
  t.groups.forEach((g, i) => {
    const rs = members[i] ?? [];
    const day = publishedDay(t, g.first) ?? "—";
    const verified = g.routineHash === null ? `not lifted: ${g.error ?? "?"}` : verifiedSummary(rs);
    lines.push(`| ${text(span(g))} | ${day} | ${g.releases.length} | ${text(verified)} |`);
  });

  const changes = t.changes ?? [];
  if (changes.length) lines.push("", "## Changes, newest first");
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i]!;
    const g = t.groups[i + 1]!;
    const day = publishedDay(t, c.to);
    lines.push("", `### ${text(c.to)}${day ? ` (${day})` : ""}`, "", `From ${text(c.from)} to ${text(c.to)}.`, "", ...changeMarkdown(c));
    lines.push(...scoringTable(g, members[i + 1] ?? [], measuredRows(changes, i + 1)));
  }
  if (t.groups[0]) {
    const g = t.groups[0];
    const day = publishedDay(t, g.first);
    lines.push("", `## The first generation: ${text(span(g))}${day ? ` (${day})` : ""}`, "");
    lines.push(...scoringTable(g, members[0] ?? [], measuredRows(changes, 0)));
  }

  const failed = t.releases.filter((r) => r.routineHash === null);
  if (o.skipped.length || failed.length) {
    lines.push("", "## Not covered", "", TABLE_HEADERS.notCovered, "|---|---|---|");
    for (const s of o.skipped) lines.push(`| ${text(s.version)} | ${text(s.platform)} | ${text(s.reason)} |`);
    for (const r of failed) lines.push(`| ${text(r.version)} | ${text(r.platform)} | ${text(r.error ?? "not lifted")} |`);
  }
  return lines.join("\n") + "\n";
}

function span(g: Group): string {
  return g.first === g.last ? g.first : `${g.first} – ${g.last}`;
}

function verifiedSummary(rs: Release[]): string {
  if (!rs.length || !rs.every((r) => r.verified)) return "not verified";
  const cells = [...new Set(rs.map((r) => `${r.verified!.agreed}/${r.verified!.cases}`))];
  return cells.join(", ");
}

/** The rules that changed, each with its witness, the probe rows that changed, and the definitions touched. */
function changeMarkdown(c: Change): string[] {
  const b = c.behaviour;
  if (!b) return [`Not compared: ${text(c.note ?? "no lifted module")}.`];
  const out: string[] = [];
  // Without a witness the verdict comes first, whatever else is said (a field newly read is no difference).
  if (b.changed.length === 0) out.push(`${markdownProse(noDifference(b))}.`);
  if (b.sentences.length > 0) {
    if (out.length > 0) out.push("");
    out.push("What changed:", "");
    for (const s of b.sentences) {
      out.push(`- ${markdownProse(s)}`);
      const w = witnessOf(s, b.changed);
      if (w) out.push(`  - shown by ${witnessLine(w)}`);
    }
  }
  const rows = (c.semantics ?? []).filter((r) => r.changed);
  if (rows.length) {
    out.push("", TABLE_HEADERS.probes, "|---|---|---|");
    for (const r of rows) out.push(`| ${text(r.feature)} | ${text(r.before)} | ${text(r.after)} |`);
  }
  const code = c.code ? summarySentence(c.code) : null;
  if (code) out.push("", `Definitions in the lifted code: ${text(code)}`);
  return out;
}

/**
 * diff's verdict where no witness was found, without what diff adds for a reader of the code (the lines never run,
 * which are the release's code) nor the seconds the search took (which vary from run to run).
 */
function noDifference(b: Behaviour): string {
  const c = b.coverage;
  if (!c) return `No behaviour difference found in ${b.searched} cases`;
  const of = c.before.of + c.after.of;
  const missed = c.before.unreached.length + c.after.unreached.length;
  // The points that cannot run, by the fact that stops them (what follows the dash), without the release's code.
  const cannot = unreachableClause(b, (p) => `because ${p.unreachable?.split(" — ").at(-1) ?? "a fact of the code"}`);
  // The verdict is diff's (behaviourVerdict); only the lines never seen (release code) and the seconds are left out.
  if (behaviourVerdict(b) === "refactor")
    return of > 0
      ? `A refactor: no behaviour difference found in ${b.searched} cases; every changed point the tool search can reach was seen: each statement and branch ran, each condition went both ways${cannot}`
      : `A refactor: no behaviour difference found in ${b.searched} cases${cannot || "; the changed lines hold no statement, branch or condition of the routine's functions"}`;
  return `Unknown: no behaviour difference found in ${b.searched} cases; ${missed} of ${of} reachable points of the changed code (statements, branches, condition outcomes) were never seen${cannot}${b.stopped ? "; the search was stopped" : ""}`;
}

/** The witness a sentence says (a witness's own summary, or that of a toolSearch and searchTools pair). */
function witnessOf(sentence: string, ws: WitnessReport[]): WitnessReport | undefined {
  return ws.find((w) => w.summary === sentence || w.summary.replace(/^toolSearch /, "toolSearch and searchTools ") === sentence);
}

/** `searchTools("query")` over the tools given, then what each side answered, cut short. */
function witnessLine(w: WitnessReport): string {
  const names = (ts: Array<{ name?: unknown }>) =>
    ts.length > NAMES
      ? `${ts
          .slice(0, NAMES)
          .map((t) => String(t.name))
          .join(", ")} and ${ts.length - NAMES} more`
      : ts.map((t) => String(t.name)).join(", ");
  const given = [
    `deferred: ${names(w.deferred)}`,
    ...(w.loaded.length ? [`loaded: ${names(w.loaded)}`] : []),
    ...(w.maxResults !== undefined ? [`maxResults ${w.maxResults}`] : []),
  ];
  const call = `${w.function}(${shortQuery(w.query)})`;
  return `${markdownCode(call)} with ${text(given.join("; "))}: before ${markdownCode(answer(w.before))}, after ${markdownCode(answer(w.after))}`;
}

/** The query as a string literal, or its start and its length when long (timeline.json has it whole). */
function shortQuery(q: string): string {
  return q.length > QUERY_CHARS ? `${JSON.stringify(q.slice(0, QUERY_CHARS))}… (${q.length} characters)` : JSON.stringify(q);
}

function answer(v: unknown): string {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > ANSWER_CHARS ? `${s.slice(0, ANSWER_CHARS - 1)}…` : s;
}

/**
 * Generation k's rows as the probes measured them, the same rows the change report and the timeline's chart
 * show: what the change point that starts it measured on its side, or for the first generation what the first
 * change point measured before it. Null when no change point touches the generation (one generation only).
 */
function measuredRows(changes: readonly Change[], k: number): Array<{ feature: string; value: string }> | null {
  const starts = k > 0 ? changes[k - 1]?.semantics : undefined;
  if (starts?.length) return starts.map((r) => ({ feature: r.feature, value: r.after }));
  const ends = changes[k]?.semantics;
  return ends?.length ? ends.map((r) => ({ feature: r.feature, value: r.before })) : null;
}

/** The generation's scoring table: what each kind of match adds, its caps and features, as measured. */
function scoringTable(g: Group, rs: Release[], rows: Array<{ feature: string; value: string }> | null): string[] {
  if (!rs.some((r) => r.routineHash && r.module)) return [];
  if (!rows) return ["", `Scoring table of ${text(span(g))}: not measured (no change point compares it with another generation).`];
  return [
    "",
    `Scoring table of ${text(span(g))} (${rs.length} release${rs.length === 1 ? "" : "s"}):`,
    "",
    TABLE_HEADERS.scoring,
    "|---|---|",
    ...rows.map((r) => `| ${text(r.feature)} | ${text(r.value)} |`),
  ];
}
