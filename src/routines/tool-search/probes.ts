/**
 * Features and weights of a lifted tool-search module, measured by what it answers: each row is a small probe
 * (a few contract calls) run on the module in the sandbox, and its value is what those calls returned — "yes"
 * or "no" only as the probe shows, "throws: …" when a call threw. Caps are the longest input tried that still
 * counts, over lengths taken from both modules' numbers and round sizes, measured through scoreTools (where the
 * scorer applies them) and again through toolSearch (where call() may apply them first): the two rows side by side
 * say which entry point applies a cap. Rows keep the semantics view's shape.
 */
import type { ContractCall } from "../../diff/witness-run.js";
import { showQuery } from "./witness-summary.js";
import type { Tool } from "./corpus.js";
import type { SemanticRow } from "./semantics.js";

export interface Probe {
  feature: string;
  calls: ContractCall[];
  /** The row's value from the calls' answers (`{ error }` for a call that threw). */
  read: (answers: unknown[]) => string;
  /** The plain-language change, when the value changed ("now …", "no longer …"). */
  sentence: (before: string, after: string, afterAnswers: unknown[]) => string;
  /** The row this one measures again through another entry point: when both change alike, one sentence says so. */
  again?: string;
}

const mcp = (server: string, tool: string, description: string, searchHint?: string): Tool => ({
  name: `mcp__${server}__${tool}`,
  description,
  isMcp: true,
  mcpInfo: { serverName: server, toolName: tool },
  ...(searchHint ? { searchHint } : {}),
});
const ISSUE = mcp("github", "create_issue", "Create a new issue in a GitHub repository", "bug report ticket");
const COMMENT = mcp("github", "add_comment", "Add a comment message to an issue");
const SLACK = mcp("slack", "send_message", "Send a message to a Slack channel");
const CHANNELS = mcp("slack", "list_channels", "List the channels of a Slack workspace");
const FETCH: Tool = { name: "WebFetch", description: "Fetch content from a URL and process it", isMcp: false };
const SEARCH: Tool = { name: "WebSearch", description: "Search the web and use the results", isMcp: false };
const AGENT: Tool = { name: "Agent", description: "Launch a new agent to handle a complex task", isMcp: false, aliases: ["Task"] };
const TODO: Tool = { name: "TodoWrite", description: "Create and manage a structured task list", isMcp: false };
/** Found by the one-letter query "q" (its name part), and by nothing in a padding of "z"s: a cut that drops the
 *  query's last character loses it, so toolSearch, which shows names only, measures a cap to the character. */
const Q = mcp("qq", "q", "A tool");

const call = (fn: ContractCall["fn"], query: string, deferred: Tool[], loaded: Tool[] = []): ContractCall => ({
  fn,
  query,
  deferred,
  loaded,
});
const isError = (v: unknown): v is { error: string } =>
  typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { error?: unknown }).error === "string";
const thrown = (xs: unknown[]) => xs.find(isError) as { error: string } | undefined;
const has = (v: unknown, name: string) => Array.isArray(v) && v.includes(name);
const shown = (v: unknown) => (Array.isArray(v) ? (v.length ? v.join(", ") : "nothing") : isError(v) ? `throws (${v.error})` : String(v));

/** A yes/no row: `holds` says whether the answers show the feature; `subject` and `predicate` make its sentence
 *  ("`select:` now also finds …", "`select:` no longer finds …"). */
function yesNo(feature: string, calls: ContractCall[], holds: (a: unknown[]) => boolean, subject: string, predicate: string): Probe {
  return {
    feature,
    calls,
    read: (a) => (thrown(a) ? `throws: ${thrown(a)!.error.slice(0, 80)}` : holds(a) ? "yes" : "no"),
    sentence: (before, after, a) => {
      const example = `${showQuery(calls[0]!.query)} → ${shown(a[0])}`;
      if (after === "yes" && before === "no") return `${subject} now also ${predicate}: ${example}`;
      if (after === "no" && before === "yes") return `${subject} no longer ${predicate}: ${example}`;
      return `${feature}: ${before} → ${after} (${example})`;
    },
  };
}

/** A query of exactly `length` characters ending in `word`. */
const padded = (length: number, word: string) => `${"z".repeat(Math.max(0, length - word.length - 1))} ${word}`;

/**
 * A cap row: the longest of `lengths` whose input still counts, that is, answers as the short `reference`
 * input does (a cut that keeps part of the last word changes its score, so scores show it).
 */
function cap(feature: string, reference: ContractCall, lengths: number[], make: (n: number) => ContractCall): Probe {
  return {
    feature,
    calls: [reference, ...lengths.map(make)],
    read: ([ref, ...a]) => {
      if (isError(ref)) return `throws: ${ref.error.slice(0, 80)}`;
      const ok = a.map((v) => JSON.stringify(v) === JSON.stringify(ref));
      const last = ok.lastIndexOf(true);
      if (last < 0) return `none counts (shortest tried ${lengths[0]})`;
      if (last === lengths.length - 1) return `none up to ${lengths[last]}`;
      if (ok.slice(0, last).some((x) => !x)) return "irregular";
      // A longer input that throws is no cap: the module fails there (e.g. a term too long for a RegExp).
      const next = a[last + 1];
      if (isError(next)) return `none: counts up to ${lengths[last]}, throws at ${lengths[last + 1]} (${next.error.slice(0, 60)})`;
      return lengths[last + 1] === lengths[last]! + 1 ? String(lengths[last]) : `${lengths[last]}–${lengths[last + 1]! - 1}`;
    },
    sentence: (before, after) => `the ${feature} is now ${after} (was ${before})`,
  };
}

function score(feature: string, query: string, tool: Tool, what: string): Probe {
  return {
    feature,
    calls: [call("scoreTools", query, [tool])],
    read: ([v]) =>
      isError(v)
        ? `throws: ${v.error.slice(0, 80)}`
        : Array.isArray(v) && typeof v[0]?.score === "number"
          ? String(v[0].score)
          : "no score",
    sentence: (before, after) => `${what} (${showQuery(query)} for ${tool.name}) now scores ${after} (was ${before})`,
  };
}

/** Lengths to try for a cap: round sizes and, from the modules' code, each number and the one after it. */
function lengths(round: number[], numbers: readonly number[], min: number, max: number): number[] {
  const fromCode = numbers.filter((n) => Number.isInteger(n) && n >= min && n <= max).flatMap((n) => [n, n + 1]);
  return [...new Set([...round, ...fromCode])].filter((n) => n >= min && n <= max).sort((x, y) => x - y);
}

export function toolSearchProbes(numbers: readonly number[]): Probe[] {
  return [...featureProbes(), ...capProbes(numbers), ...scoreProbes()];
}

/** Yes-or-no rows: which inputs each entry point takes at all. */
function featureProbes(): Probe[] {
  return [...lookupProbes(), ...selectProbes(), ...keywordProbes()];
}

/** Which tools the keyword search reaches, and exact names. */
function lookupProbes(): Probe[] {
  return [
    // Which tools are searched is the caller's deferred list (the contract's defer policy). MCPSearch-era releases
    // (to 2.1.7) filtered call()'s tools by isMcp; the lift puts the caller's list in that filter's place, as it
    // does for the later flag-reading policies, so a built-in given as deferred is found in every era: the row
    // says what the module does with that input, not that MCPSearch searched built-ins.
    yesNo(
      "keyword search: a built-in given as deferred",
      [call("toolSearch", "fetch url", [FETCH, SLACK])],
      ([v]) => has(v, "WebFetch"),
      "the keyword search",
      "returns a built-in tool given as deferred",
    ),
    yesNo(
      "keyword search: MCP tools",
      [call("toolSearch", "slack message", [SLACK, FETCH])],
      ([v]) => has(v, SLACK.name),
      "the keyword search",
      "searches MCP tools",
    ),
    yesNo(
      "exact name in another case",
      [call("searchTools", "webfetch", [FETCH, SEARCH, SLACK])],
      ([v]) => has(v, "WebFetch"),
      "searchTools",
      "finds a tool by its exact name in another case",
    ),
    yesNo(
      "exact name: loaded tool",
      [call("toolSearch", "WebFetch", [SLACK, ISSUE], [FETCH])],
      ([v]) => has(v, "WebFetch"),
      "toolSearch",
      "finds a loaded tool by its exact name",
    ),
  ];
}

/** What `select:` takes. */
function selectProbes(): Probe[] {
  return [
    yesNo(
      "select: full name",
      [call("toolSearch", `select:${ISSUE.name}`, [ISSUE, SLACK])],
      ([v]) => has(v, ISSUE.name),
      "`select:`",
      "finds a tool by its full name",
    ),
    yesNo(
      "select: bare MCP tool name",
      [call("toolSearch", "select:create_issue", [ISSUE])],
      ([v]) => has(v, ISSUE.name),
      "`select:`",
      "finds an MCP tool by its bare tool name",
    ),
    yesNo(
      "select: other case",
      [call("toolSearch", "select:webfetch", [FETCH])],
      ([v]) => has(v, "WebFetch"),
      "`select:`",
      "finds a name written in another case",
    ),
    yesNo(
      "select: comma list",
      [call("toolSearch", `select:WebFetch,${SLACK.name}`, [FETCH, SLACK])],
      ([v]) => has(v, "WebFetch") && has(v, SLACK.name),
      "`select:`",
      "takes a comma-separated list",
    ),
    yesNo(
      "select: by alias",
      [call("toolSearch", "select:Task", [AGENT])],
      ([v]) => has(v, "Agent"),
      "`select:`",
      "finds a tool by an alias",
    ),
    yesNo(
      "select: loaded tools too",
      [call("toolSearch", "select:WebFetch", [SLACK], [FETCH])],
      ([v]) => has(v, "WebFetch"),
      "`select:`",
      "finds a loaded tool",
    ),
  ];
}

/** Required terms, server prefixes, hints and description words. */
function keywordProbes(): Probe[] {
  return [
    yesNo(
      "+required terms",
      [call("searchTools", "+slack message", [COMMENT, SLACK])],
      ([v]) => has(v, SLACK.name) && !has(v, COMMENT.name),
      "searchTools",
      "honours `+required` terms",
    ),
    yesNo(
      "mcp__ prefix: a server's tools",
      [call("searchTools", "mcp__slack", [ISSUE, SLACK, CHANNELS])],
      ([v]) => has(v, SLACK.name) && has(v, CHANNELS.name) && !has(v, ISSUE.name),
      "searchTools",
      "returns a server's tools for an `mcp__server` query",
    ),
    yesNo(
      "searchHint words count",
      [call("searchTools", "ticket", [ISSUE, SLACK])],
      ([v]) => has(v, ISSUE.name),
      "searchTools",
      "matches searchHint words",
    ),
    yesNo(
      "description: whole word",
      [call("searchTools", "repository", [ISSUE, SLACK])],
      ([v]) => has(v, ISSUE.name),
      "searchTools",
      "matches a whole description word",
    ),
    yesNo(
      "description: part of a word",
      [call("searchTools", "reposit", [ISSUE, SLACK])],
      ([v]) => has(v, ISSUE.name),
      "searchTools",
      "matches part of a description word",
    ),
  ];
}

/** The longest input that still counts, through scoreTools and through toolSearch. */
function capProbes(numbers: readonly number[]): Probe[] {
  return [
    cap(
      "query cap (characters)",
      call("scoreTools", "slack", [SLACK]),
      lengths([100, 1000, 4096, 8192, 16384, 16385, 65536], numbers, 64, 70_000),
      (n) => call("scoreTools", padded(n, "slack"), [SLACK]),
    ),
    cap("query cap (words)", call("scoreTools", "slack", [SLACK]), lengths([8, 16, 32, 33, 64, 256], numbers, 4, 2_000), (n) =>
      call("scoreTools", [...Array(n - 1).fill("zq"), "slack"].join(" "), [SLACK]),
    ),
    cap(
      "select: cap (names)",
      call("toolSearch", `select:${SLACK.name}`, [SLACK, ISSUE]),
      lengths([8, 16, 64, 65, 256], numbers, 4, 2_000),
      (n) => call("toolSearch", `select:${Array.from({ length: n - 1 }, (_, i) => `x${i}`).join(",")},${SLACK.name}`, [SLACK, ISSUE]),
    ),
    cap(
      "searchHint cap (characters)",
      call("scoreTools", "zork", [{ ...SLACK, searchHint: "zork" }]),
      lengths([100, 1000, 4096, 4097, 16384], numbers, 64, 70_000),
      (n) => call("scoreTools", "zork", [{ ...SLACK, searchHint: padded(n, "zork") }]),
    ),
    // The same caps through toolSearch: a cap that call() applies before searching shows here only.
    {
      ...cap(
        "query cap (characters) in toolSearch",
        call("toolSearch", "q", [Q, SLACK]),
        lengths([100, 1000, 4096, 8192, 16384, 16385, 65536], numbers, 64, 70_000),
        (n) => call("toolSearch", padded(n, "q"), [Q, SLACK]),
      ),
      again: "query cap (characters)",
    },
    {
      ...cap(
        "query cap (words) in toolSearch",
        call("toolSearch", "q", [Q, SLACK]),
        lengths([8, 16, 32, 33, 64, 256], numbers, 4, 2_000),
        (n) => call("toolSearch", [...Array(n - 1).fill("zz"), "q"].join(" "), [Q, SLACK]),
      ),
      again: "query cap (words)",
    },
    {
      ...cap(
        "searchHint cap (characters) in toolSearch",
        call("toolSearch", "zork", [{ ...SLACK, searchHint: "zork" }, Q]),
        lengths([100, 1000, 4096, 4097, 16384], numbers, 64, 70_000),
        (n) => call("toolSearch", "zork", [{ ...SLACK, searchHint: padded(n, "zork") }, Q]),
      ),
      again: "searchHint cap (characters)",
    },
  ];
}

/** The default list length, and what single queries score. */
function scoreProbes(): Probe[] {
  const twelve = Array.from({ length: 12 }, (_, i) => mcp(`srv${i}`, `tool_${i}`, "A tool for testing"));
  return [
    {
      feature: "default max results",
      calls: [call("searchTools", "testing", twelve)],
      read: ([v]) => (isError(v) ? `throws: ${v.error.slice(0, 80)}` : Array.isArray(v) ? String(v.length) : "no list"),
      sentence: (before, after) => `returns at most ${after} results by default (was ${before})`,
    },
    score("score: server name", "github", ISSUE, "a query equal to the MCP server name"),
    score("score: MCP name part", "create", ISSUE, "a query equal to a part of an MCP tool's name"),
    score("score: part of an MCP name part", "creat", ISSUE, "a query inside a part of an MCP tool's name"),
    score("score: bare MCP tool name", "create_issue", ISSUE, "a query equal to the bare MCP tool name"),
    score("score: description word", "repository", ISSUE, "a query equal to a description word"),
    score("score: searchHint word", "ticket", ISSUE, "a query equal to a searchHint word"),
    score("score: built-in name part", "todo", TODO, "a query equal to a part of a built-in's name"),
    score("score: part of a built-in name part", "writ", TODO, "a query inside a part of a built-in's name"),
  ];
}

/** Rows before → after from each module's answers to the probes' calls (in the probes' order, flattened). */
export function probeRows(probes: Probe[], before: unknown[], after: unknown[]): { rows: SemanticRow[]; sentences: string[] } {
  const rows: SemanticRow[] = [];
  const sentences: string[] = [];
  const said = new Map<string, number>();
  let at = 0;
  for (const p of probes) {
    const [a, b] = [before.slice(at, at + p.calls.length), after.slice(at, at + p.calls.length)];
    at += p.calls.length;
    const [x, y] = [p.read(a), p.read(b)];
    rows.push({ feature: p.feature, before: x, after: y, changed: x !== y });
    if (x === y) continue;
    const first = p.again === undefined ? undefined : rows.find((r) => r.feature === p.again);
    const i = p.again === undefined ? undefined : said.get(p.again);
    if (first && i !== undefined && first.before === x && first.after === y) {
      sentences[i] += " — through scoreTools and toolSearch alike";
      continue;
    }
    said.set(p.feature, sentences.length);
    sentences.push(p.sentence(x, y, b));
  }
  return { rows, sentences };
}
