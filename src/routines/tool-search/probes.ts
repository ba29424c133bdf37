/**
 * Features and weights of a lifted tool-search module, measured by what it answers: each row is a small probe
 * (a few contract calls) run on the module in the sandbox, and its value is what those calls returned — "yes"
 * or "no" only as the probe shows, "throws: …" when a call threw. Caps are the longest input tried that still
 * counts, over lengths taken from both modules' numbers and round sizes, measured through scoreTools (where the
 * scorer applies them) and again through toolSearch (where call() may apply them first): the two rows side by side
 * say which entry point applies a cap. The scoring table's rows ("adds: …") give what each kind of match adds,
 * each the difference of two single-tool scoreTools calls in which one rule differs (rule-probes.ts). Rows keep
 * the semantics view's shape.
 */
import type { ContractCall } from "../../diff/witness-run.js";
import { showQuery } from "./witness-summary.js";
import type { Tool } from "./corpus.js";
import type { SemanticRow } from "./semantics.js";
import { type Probe, mcp, call, isError, thrown, has, shown } from "./probe-calls.js";
import { RULE_DESCRIPTION, RULE_MCP, ruleProbes, scoreOf } from "./rule-probes.js";
const ISSUE = mcp("github", "create_issue", "Create a new issue in a GitHub repository", "bug report ticket");
const COMMENT = mcp("github", "add_comment", "Add a comment message to an issue");
const SLACK = mcp("slack", "send_message", "Send a message to a Slack channel");
const CHANNELS = mcp("slack", "list_channels", "List the channels of a Slack workspace");
const FETCH: Tool = { name: "WebFetch", description: "Fetch content from a URL and process it", isMcp: false };
const SEARCH: Tool = { name: "WebSearch", description: "Search the web and use the results", isMcp: false };
const AGENT: Tool = { name: "Agent", description: "Launch a new agent to handle a complex task", isMcp: false, aliases: ["Task"] };
/** Found by the one-letter query "q" (its name part), and by nothing in a padding of "z"s: a cut that drops the
 *  query's last character loses it, so toolSearch, which shows names only, measures a cap to the character. */
const Q = mcp("qq", "q", "A tool");

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
      // A longer input that throws is no cap: the module fails there (e.g. a term too long for a RegExp). The
      // value says so, and its sentence goes with the throws (probeRows), not with the caps.
      const next = a[last + 1];
      if (isError(next)) return `none up to ${lengths[last]}; throws at ${lengths[last + 1]} (${next.error.slice(0, 60)})`;
      return lengths[last + 1] === lengths[last]! + 1 ? String(lengths[last]) : `${lengths[last]}–${lengths[last + 1]! - 1}`;
    },
    sentence: (before, after) => {
      const throwsAt = /^none up to (\d+); throws at (\d+) \((.*)\)$/;
      const [x, y] = [throwsAt.exec(before), throwsAt.exec(after)];
      // "query cap (characters) in toolSearch" → a query of N characters, in toolSearch.
      const [, input, unit, where] = /^(.*?) cap \((\w+)\)(.*)$/.exec(feature) ?? [feature, feature, "", ""];
      const of = (n: string) => `a ${input.replace(/:$/, "")} input of ${n} ${unit}${where}`;
      if (y && !x) return `${of(y[2]!)} now throws (${y[3]}); no cap up to ${y[1]} (was: ${before})`;
      if (x && !y) return `${of(x[2]!)} no longer throws (${x[3]}); the ${feature} is now ${after}`;
      return `the ${feature} is now ${after} (was ${before})`;
    },
  };
}

/** Lengths to try for a cap: round sizes and, from the modules' code, each number and the one after it. */
function lengths(round: number[], numbers: readonly number[], min: number, max: number): number[] {
  const fromCode = numbers.filter((n) => Number.isInteger(n) && n >= min && n <= max).flatMap((n) => [n, n + 1]);
  return [...new Set([...round, ...fromCode])].filter((n) => n >= min && n <= max).sort((x, y) => x - y);
}

export function toolSearchProbes(numbers: readonly number[]): Probe[] {
  return [...featureProbes(), ...capProbes(numbers), ...defaultProbes(), ...ruleProbes()];
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
      "exact name: the same case first",
      [
        call("toolSearch", "EchoTool", [
          { name: "echotool", description: "A tool", isMcp: false },
          { name: "EchoTool", description: "A tool", isMcp: false },
        ]),
      ],
      ([v]) => JSON.stringify(v) === JSON.stringify(["EchoTool"]),
      "toolSearch",
      "prefers a tool named exactly as the query over one named so in another case",
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
    // Where the name parts come from: mcpInfo's server and tool names (the name says otherwise here), and
    // whether a dot splits them ("charlie" scores as an exact part of "bravo.charlie" as of "bravo_charlie").
    yesNo(
      "name parts from mcpInfo",
      [call("scoreTools", "kilo", [{ ...mcp("alpha", "bravo", "A tool"), mcpInfo: { serverName: "kilo", toolName: "lima" } }])],
      ([v]) => (scoreOf(v) as number) > 0,
      "the keyword search",
      "reads name parts from mcpInfo's server and tool names",
    ),
    yesNo(
      "name parts split at dots",
      [
        call("scoreTools", "charlie", [mcp("alpha", "bravo.charlie", RULE_DESCRIPTION)]),
        call("scoreTools", "charlie", [RULE_MCP]),
        call("scoreTools", "harli", [RULE_MCP]),
      ],
      ([dot, underscore, partial]) =>
        scoreOf(dot) === scoreOf(underscore) && (scoreOf(underscore) as number) > (scoreOf(partial) as number),
      "the keyword search",
      "splits name parts at dots as at underscores",
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
      call("scoreTools", [...Array<string>(n - 1).fill("zq"), "slack"].join(" "), [SLACK]),
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
        (n) => call("toolSearch", [...Array<string>(n - 1).fill("zz"), "q"].join(" "), [Q, SLACK]),
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

/** The default list length. */
function defaultProbes(): Probe[] {
  const twelve = Array.from({ length: 12 }, (_, i) => mcp(`srv${i}`, `tool_${i}`, "A tool for testing"));
  return [
    {
      feature: "default max results",
      calls: [call("searchTools", "testing", twelve)],
      read: ([v]) => (isError(v) ? `throws: ${v.error.slice(0, 80)}` : Array.isArray(v) ? String(v.length) : "no list"),
      sentence: (before, after) => `returns at most ${after} results by default (was ${before})`,
    },
  ];
}

/**
 * Rows before → after from each module's answers to the probes' calls (in the probes' order, flattened), and
 * their sentences: `sentences` for changed results, `throws` for rows where a call throws on one side (malformed
 * input, a limit of the engine), which say less about the rules and are listed after the result changes.
 */
export function probeRows(
  probes: Probe[],
  before: unknown[],
  after: unknown[],
): { rows: SemanticRow[]; sentences: string[]; throws: string[] } {
  const rows: SemanticRow[] = [];
  const out = { sentences: [] as string[], throws: [] as string[] };
  const said = new Map<string, { list: string[]; at: number }>();
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
      i.list[i.at] += " — through scoreTools and toolSearch alike";
      continue;
    }
    const list = [x, y].some((v) => /^throws|; throws at /.test(v)) ? out.throws : out.sentences;
    said.set(p.feature, { list, at: list.length });
    list.push(p.sentence(x, y, b, a));
  }
  return { rows, ...out };
}
