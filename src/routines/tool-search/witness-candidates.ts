/**
 * Candidate calls for the witness search of the tool search (src/diff/witness-search.ts), best first, the same
 * sequence for the same code on every run (the corpus is seeded with WITNESS_SEED). First, the calls built
 * from the changed lines of the two modules (`tokens.changedCode`), which hold the very literals that would
 * find the change:
 * - their numbers as thresholds and caps: query words of a length just below, at and above the number (a new
 *   `term.length > 3`), queries of exactly as many distinct matching words around it (a word cap
 *   `slice(0, 4)`), as many tools around it, and the characters, `select:` names, hints and descriptions
 *   numberCalls tries;
 * - the texts they test names against (`name.startsWith("mcp__remote-devices__device_")`, `includes`, `endsWith`,
 *   `===`): tools named with that prefix, part, suffix or name, MCP-shaped when the name is, asked for by name,
 *   by `select:`, by a word of the name, deferred and loaded, and all such tools together;
 * - the names they compare for equality, in pairs: a tool named one of them holding the other as an alias,
 *   beside a tool named the other (a lookup by name or alias that now prefers one of them);
 * - the properties they read: a tool carrying that field (an unknown one too: `tool.title`), its value made of
 *   words the query holds, as a string, a list and a flag, beside a tool without it; a property read inside a
 *   contract field (`entry.mcpInfo.nameKey`) inside the tool's own object of that field; an object field of the
 *   contract (mcpInfo) holding a text, a flag or a number;
 * - their strings and regexes: as queries, tool names, `select:` names, and joining a tool's name parts; a long
 *   text (a paragraph the code strips from descriptions) inside a description, the query one of its words;
 * - ties: tools that score the same, listed in an order their names do not sort in (a tie-breaker on names).
 * Then, in turn so that any budget gets some of each (the changed code's calls still among them):
 * - the code: string literals, regexes, numbers and names of the two modules (those on changed lines first),
 *   as queries, `select:` names and description words; numbers as caps, tried just below, at and above
 *   (query characters, words, `select:` names, searchHint characters, maxResults);
 * - a grammar of realistic catalogs (MCP tools with and without `toolName`, built-ins with aliases and
 *   searchHints, tools deferred or loaded) and queries built from their names, parts, servers, descriptions,
 *   hints and aliases in several cases, `select:` with full, bare and aliased names and lists, `+required`,
 *   `mcp__` prefixes, long inputs and unicode;
 * - the behaviour catalog and its queries (catalogs.ts);
 * - the verification corpus (corpus.ts).
 */
import type { CodeTokens, NameTest } from "../../diff/code-tokens.js";
import type { ContractCall } from "../../diff/witness-run.js";
import type { ContractFn } from "../../verify/verify.js";
import { DEFAULT_QUERIES, defaultCatalog } from "./catalogs.js";
import { generateCorpus, type Tool } from "./corpus.js";
import { CONTRACT_INNER_FIELDS, NOT_OBJECT_KINDS } from "./field-values.js";

const FNS: readonly ContractFn[] = ["toolSearch", "searchTools", "scoreTools"];

function mcp(server: string, tool: string, description: string, searchHint?: string): Tool {
  return {
    name: `mcp__${server}__${tool}`,
    description,
    isMcp: true,
    mcpInfo: { serverName: server, toolName: tool },
    ...(searchHint ? { searchHint } : {}),
  };
}

function builtIn(name: string, description: string, extra: Partial<Tool> = {}): Tool {
  return { name, description, isMcp: false, ...extra };
}

/** Tools as a client holds them: written for searchlift, in the shapes real servers and built-ins take. */
export const GRAMMAR_TOOLS: readonly Tool[] = [
  mcp("github", "create_issue", "Create a new issue in a GitHub repository", "bug report ticket"),
  mcp("github", "list_pull_requests", "List pull requests in a repository"),
  mcp("slack", "send_message", "Send a message to a Slack channel"),
  mcp("claude_ai_Notion", "notion-search", "Search pages and databases in the Notion workspace"),
  mcp("my.server", "getData", "Read data records from the server"),
  builtIn("WebFetch", "Fetch content from a URL and process it"),
  builtIn("WebSearch", "Search the web and use the results"),
  builtIn("NotebookEdit", "Replace the contents of a cell in a Jupyter notebook", { searchHint: "jupyter ipynb" }),
  builtIn("Agent", "Launch a new agent to handle a complex task", { aliases: ["Task"] }),
  builtIn("TodoWrite", "Create and manage a structured task list"),
];

const isMcp = (t: Tool) => t.isMcp ?? t.name.startsWith("mcp__");

/** The same tools held in different ways: all deferred, built-ins loaded, MCP loaded, `toolName` or `isMcp` left out. */
function catalogVariants(tools: readonly Tool[]): Array<{ deferred: Tool[]; loaded: Tool[] }> {
  const all = [...tools];
  const noToolName = all.map((t) => (t.mcpInfo ? { ...t, mcpInfo: { serverName: t.mcpInfo.serverName } } : t));
  const noIsMcp = all.map(({ isMcp: _drop, ...t }) => t);
  return [
    { deferred: all, loaded: [] },
    { deferred: all.filter(isMcp), loaded: all.filter((t) => !isMcp(t)) },
    { deferred: all.filter((t) => !isMcp(t)), loaded: all.filter(isMcp) },
    { deferred: noToolName, loaded: [] },
    { deferred: noIsMcp, loaded: [] },
  ];
}

const words = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const nameParts = (name: string) =>
  words(
    name
      .replace(/^mcp__/, "")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .replace(/[_.-]+/g, " "),
  );
const cases = (s: string) => [...new Set([s, s.toLowerCase(), s.toUpperCase()])];

/** Queries an agent could send about one tool of the catalog. */
function toolQueries(t: Tool, other: Tool): string[] {
  const bare = t.mcpInfo?.toolName ?? t.name.split("__").pop()!;
  const server = t.mcpInfo?.serverName;
  const parts = nameParts(t.name);
  const desc = words(t.description ?? "");
  const hint = words(t.searchHint ?? "");
  const q = [
    ...cases(t.name),
    bare,
    ...parts,
    ...parts.map((p) => p.slice(0, Math.max(2, p.length - 2))),
    parts.join(" "),
    `select:${t.name}`,
    `select:${t.name.toLowerCase()}`,
    `select:${bare}`,
    `select: ${t.name} `,
    `select:${t.name},${other.name}`,
    `select:${bare},${other.name}`,
    `select:${t.name},missing_tool`,
    `select:${t.name},${t.name}`,
    `SELECT:${t.name}`,
    ...(t.aliases ?? []).flatMap((a) => [a, `select:${a}`, `select:${a.toLowerCase()}`]),
    ...desc.slice(0, 4),
    ...desc.slice(0, 2).map((w) => `${w}s`),
    desc.slice(0, 3).join(" "),
    ...hint,
    hint.join(" "),
    `+${parts[0] ?? bare} ${desc[0] ?? ""}`.trim(),
    `${parts[0] ?? bare} +${desc[1] ?? "x"}`,
  ];
  if (server !== undefined)
    q.push(
      server,
      server.toLowerCase(),
      `mcp__${server}`,
      `mcp__${server}__`,
      `mcp__${server} ${parts[1] ?? ""}`.trim(),
      `select:mcp__${server}`,
      `${server} ${bare}`,
    );
  return q;
}

/** Queries about no tool in particular: empty, punctuation, unicode, long. */
const GENERAL_QUERIES = [
  "",
  " ",
  "select:",
  "select:,",
  "+",
  "+ +",
  "mcp__",
  "mcp__ ",
  "issue🙂",
  "créer une issue",
  "ＷｅｂＦｅｔｃｈ",
  "web-fetch",
  "web_fetch",
  "pull-request",
  "github.create_issue",
  "a b c d e f g h i j k l m n o p q r s t u v w x y z aa bb cc dd ee ff gg hh ii jj",
  "issue ".repeat(40).trim(),
  "search ".repeat(3000).trim(),
];

function callsFor(query: string, deferred: Tool[], loaded: Tool[], maxResults?: number): ContractCall[] {
  return FNS.map((fn) => ({ fn, query, deferred, loaded, ...(maxResults !== undefined ? { maxResults } : {}) }));
}

function* grammarCalls(): Generator<ContractCall> {
  const variants = catalogVariants(GRAMMAR_TOOLS);
  const tools = GRAMMAR_TOOLS;
  let k = 0;
  const queries = [...tools.flatMap((t, i) => toolQueries(t, tools[(i + 1) % tools.length]!)), ...GENERAL_QUERIES];
  // Each query over one catalog variant in turn, then over each tool alone (the variants again, later).
  for (const query of new Set(queries)) {
    const v = variants[k++ % variants.length]!;
    yield* callsFor(query, v.deferred, v.loaded, k % 7 === 0 ? 1 : undefined);
  }
  for (const t of tools) for (const query of new Set(toolQueries(t, tools[0]!))) yield* callsFor(query, [t], []);
  for (const query of new Set(queries)) for (const v of variants.slice(1)) yield* callsFor(query, v.deferred, v.loaded);
}

/** A query of exactly `length` characters that ends (or starts) with a word the catalog matches. */
function paddedQuery(length: number, word: string, atEnd: boolean): string {
  const pad = "z".repeat(Math.max(0, length - word.length - 1));
  return atEnd ? `${pad} ${word}` : `${word} ${pad}`;
}

/** Inputs at and just past each number of the code, as a cap would count them. Long inputs go through
 *  scoreTools and toolSearch only: scores show a cut that drops part of a word, toolSearch the whole call.
 *  Past 2000, only the input one past the number: long inputs cost the most to send and to search, and a cap
 *  at the number already answers differently there (the probes measure the cap itself). */
function* numberCalls(numbers: readonly number[]): Generator<ContractCall> {
  const base = [...GRAMMAR_TOOLS];
  const two = (query: string, deferred: Tool[]): ContractCall[] =>
    (["scoreTools", "toolSearch"] as const).map((fn) => ({ fn, query, deferred, loaded: [] }));
  for (const n of numbers) {
    if (!Number.isInteger(n) || n < 2 || n > 70_000) continue;
    for (const len of n > 2000 ? [n + 1] : [n, n + 1]) {
      yield* two(paddedQuery(len, "slack", true), base);
      if (len <= 5000) yield* two([...Array<string>(len - 1).fill("zq"), "slack"].join(" "), base);
      if (len <= 2000)
        yield* callsFor(`select:${Array.from({ length: len - 1 }, (_, i) => `x${i}`).join(",")},mcp__slack__send_message`, base, []);
      yield* two("zork", [{ ...GRAMMAR_TOOLS[0]!, searchHint: paddedQuery(len, "zork", true) }]);
      yield {
        fn: "scoreTools",
        query: "zork",
        deferred: [{ ...GRAMMAR_TOOLS[0]!, description: paddedQuery(len, "zork", true) }],
        loaded: [],
      };
    }
    if (n <= 100) yield* callsFor("search", base, [], n);
  }
}

function* stringCalls(tokens: CodeTokens): Generator<ContractCall> {
  const base = [...GRAMMAR_TOOLS];
  const usable = (s: string) => s.length > 0 && s.length <= 60 && !/[\u0000-\u001f]/.test(s);
  const texts = [...tokens.strings.filter(usable), ...tokens.names.slice(0, 60)];
  for (const s of texts) {
    const plain = s.replace(/[\\^$()[\]{}*+?|]/g, "");
    for (const q of new Set([s, plain, `select:${plain}`, `${plain} issue`])) yield* callsFor(q, base, []);
    const carrier = mcp("probe", "tool_x", `Does ${plain} for you`, plain);
    yield* callsFor(plain, [carrier, ...base], []);
  }
}

function* catalogCalls(): Generator<ContractCall> {
  const catalog = defaultCatalog() as Tool[];
  const mcpTools = catalog.filter(isMcp);
  const builtIns = catalog.filter((t) => !isMcp(t));
  // A 280-tool call costs a hundred small ones: the scores of every tool say what searchTools would rank, and
  // toolSearch (with the built-ins loaded) what the call returns; searchTools on top would only repeat them.
  for (const q of DEFAULT_QUERIES) yield { fn: "scoreTools", query: q, deferred: catalog, loaded: [] };
  for (const q of DEFAULT_QUERIES) yield { fn: "toolSearch", query: q, deferred: mcpTools, loaded: builtIns };
}

function* corpusCalls(seed: number): Generator<ContractCall> {
  for (const c of generateCorpus(seed)) yield* callsFor(c.query, c.deferred, c.loaded, c.maxResults);
}

/** Matching words of the grammar catalog, as the routine would split them: name parts (MCP names on `_`,
 *  built-ins on case), then description words, lower case, without repeats. */
function catalogWords(): string[] {
  const parts = GRAMMAR_TOOLS.flatMap((t) => nameParts(t.name).map((p) => p.toLowerCase()));
  const desc = GRAMMAR_TOOLS.flatMap((t) => words(t.description ?? "").map((w) => w.toLowerCase()));
  return [...new Set([...parts, ...desc])];
}

/** Numbers of the changed code that can be a threshold or a cap on words, tools or results. */
const smallNumbers = (ns: readonly number[]) => ns.filter((n) => Number.isInteger(n) && n >= 0 && n <= 40).slice(0, 16);

/** Query words of a length just below, at and above each number: a word of the catalog (its name part, a
 *  description word) or the start of a longer part, matched as a substring. */
function* thresholdCalls(numbers: readonly number[]): Generator<ContractCall> {
  const base = [...GRAMMAR_TOOLS];
  const all = catalogWords();
  for (const n of smallNumbers(numbers)) {
    for (const len of [n - 1, n, n + 1, n + 2]) {
      if (len < 1) continue;
      const exact = all.filter((w) => w.length === len).slice(0, 3);
      const prefix = all.filter((w) => w.length > len + 1).map((w) => w.slice(0, len));
      for (const q of new Set([...exact, ...prefix.slice(0, 2)])) yield* callsFor(q, base, []);
      if (exact[0] !== undefined) yield* callsFor(`${exact[0]} slack`, base, []);
    }
  }
}

/** Queries of exactly as many distinct words as a number and around it, every word matching a tool (a cap
 *  drops a word that scores), or only the last one. */
function* wordCapCalls(numbers: readonly number[]): Generator<ContractCall> {
  const base = [...GRAMMAR_TOOLS];
  const all = catalogWords();
  for (const n of smallNumbers(numbers)) {
    for (const k of [n, n + 1, n - 1, n + 2]) {
      if (k < 1 || k > all.length) continue;
      yield* callsFor(all.slice(0, k).join(" "), base, []);
      const fillers = Array.from({ length: k - 1 }, (_, i) => `zq${String.fromCharCode(97 + (i % 26))}${i >= 26 ? i : ""}`);
      yield* callsFor([...fillers, "slack"].join(" "), base, []);
    }
  }
}

/** As many tools as a number and around it, all matching the query and scoring the same (a cap on tools or
 *  results), listed in reverse order of their names. */
function* toolCountCalls(numbers: readonly number[]): Generator<ContractCall> {
  for (const n of smallNumbers(numbers)) {
    for (const k of [n, n + 1]) {
      if (k < 1) continue;
      const tools = Array.from({ length: k }, (_, i) => mcp(`srv${String(k - i).padStart(2, "0")}`, "find_item", "Find an item"));
      yield* callsFor("find", tools, []);
      yield { fn: "toolSearch", query: "find", deferred: tools, loaded: [], maxResults: Math.max(1, n) };
    }
  }
}

/** Tools that score the same, in an order their names do not sort in, in several kinds and cases. */
function* tieCalls(): Generator<ContractCall> {
  const sets: Array<[string, Tool[]]> = [
    ["find", [mcp("zulu", "find_item", "Find an item"), mcp("alpha", "find_item", "Find an item")]],
    ["fetch", [builtIn("ZetaFetch", "Fetch a page"), builtIn("AlphaFetch", "Fetch a page")]],
    [
      "find",
      [mcp("beta", "find_item", "Find an item"), mcp("Alpha", "find_item", "Find an item"), mcp("alpha", "find_item", "Find an item")],
    ],
    ["page", [builtIn("PageZ", "Read a page"), mcp("page", "read", "Read a page"), builtIn("PageA", "Read a page")]],
    ["item", [mcp("b", "item", "An item"), mcp("a", "item", "An item"), mcp("c", "item", "An item")]],
  ];
  for (const [q, tools] of sets) {
    yield* callsFor(q, tools, []);
    yield { fn: "toolSearch", query: q, deferred: tools, loaded: [], maxResults: 1 };
    yield* callsFor(q, tools.slice(1), tools.slice(0, 1));
  }
  // Names that differ in case only, the query equal to each of them (an exact name compared with or without case).
  const cased: Tool[][] = [
    [builtIn("Eval", "Evaluate code"), builtIn("eval", "Evaluate code")],
    [mcp("Srv", "Find", "Find an item"), mcp("srv", "find", "Find an item")],
  ];
  for (const tools of cased)
    for (const q of [...tools.map((t) => t.name), tools[0]!.name.toUpperCase()]) {
      yield* callsFor(q, tools, []);
      yield* callsFor(q, [...tools].reverse(), []);
      yield* callsFor(q, tools.slice(1), tools.slice(0, 1));
    }
}

/** The values the contract's own fields take (a malformed value finds throws, not the change); `name` and
 *  `mcpInfo` are not set alone. A field the contract does not name gets a text, a list and a flag. */
const KNOWN_FIELDS: Record<string, ReadonlyArray<"text" | "list" | "flag">> = {
  name: [],
  mcpInfo: [],
  description: ["text"],
  searchHint: ["text"],
  serverName: ["text"],
  toolName: ["text"],
  aliases: ["list"],
  isMcp: ["flag"],
};

/** The contract field a property of the changed code is read inside (`mcpInfo` for `serverName`, or for
 *  `nameKey` where the changed code reads `mcpInfo.nameKey`), or null for a property of the tool itself. */
function containerOf(field: string, paths: readonly string[]): string | null {
  for (const [container, named] of Object.entries(CONTRACT_INNER_FIELDS))
    if (named.includes(field) || paths.includes(`${container}.${field}`)) return container;
  return null;
}

/** A tool carrying each property the changed code reads, its value made of words the query holds (or requires). */
function* fieldCalls(members: readonly string[], paths: readonly string[] = []): Generator<ContractCall> {
  const base = [...GRAMMAR_TOOLS];
  for (const field of members.slice(0, 24)) {
    const kinds = Object.hasOwn(KNOWN_FIELDS, field) ? KNOWN_FIELDS[field]! : (["text", "list", "flag"] as const);
    const plain = mcp("probe", "tool_x", "Does a thing");
    const other = mcp("other", "tool_y", "Does a thing");
    const container = containerOf(field, paths);
    const with_ = (value: unknown): Tool =>
      container !== null
        ? { ...plain, [container]: { ...(plain as unknown as Record<string, object>)[container], [field]: value } }
        : { ...plain, [field]: value };
    if (kinds.includes("text")) {
      const builtInWith = { ...builtIn("ProbeTool", "Does a thing"), [field]: "Zephyr widget" };
      for (const q of ["zephyr", "zephyr widget", "zeph", "Zephyr widget", "+zephyr thing"]) {
        yield* callsFor(q, [other, with_("Zephyr widget")], []);
        if (container === null) yield* callsFor(q, [other, builtInWith], []);
      }
      yield* callsFor("zephyr", [with_("zephyr")], base);
    }
    if (kinds.includes("list")) {
      yield* callsFor("zephyr", [with_(["zephyr", "widget"]), other], []);
      // An element equal to a word the query requires (`+zephyr`), in another case, with a word that scores the
      // tool by its description: a test of the element against the query's words decides whether it is kept.
      for (const q of ["+zephyr thing", "+zephyr", "zephyr thing"]) yield* callsFor(q, [with_(["Zephyr"]), other], []);
    }
    if (kinds.includes("flag")) for (const flag of [true, false]) yield* callsFor("thing", [other, with_(flag)], []);
    // A field read further (`tool.annotations?.category`): an object holding each property read on it, then each
    // other property the changed code reads.
    if (!Object.hasOwn(KNOWN_FIELDS, field) && container === null) {
      const onIt = paths.filter((p) => p.startsWith(`${field}.`)).map((p) => p.slice(field.length + 1));
      for (const inner of [...new Set([...onIt, ...members.filter((m) => m !== field)])].slice(0, 6))
        for (const q of ["zephyr", "zephyr widget"]) yield* callsFor(q, [other, with_({ [inner]: "zephyr" })], []);
    }
  }
}

/** Values that an object field of the contract (mcpInfo) is not, which code reading it may take in its stride
 *  or refuse — a text, a flag, a number: a property read, a WeakMap key. */
const NOT_OBJECTS: readonly unknown[] = NOT_OBJECT_KINDS.map(([value]) => value);

/** A tool whose object field the changed code reads (mcpInfo) holds a value that is not an object, beside an
 *  ordinary tool, asked for by a word of both descriptions and by its name: code that now keeps such a value in a
 *  WeakMap, or reads a property of it another way, throws where it did not (or no longer throws). */
function* notObjectCalls(members: readonly string[], paths: readonly string[]): Generator<ContractCall> {
  const other = mcp("other", "tool_y", "Does a thing");
  for (const field of Object.keys(CONTRACT_INNER_FIELDS)) {
    if (!members.includes(field) && !paths.some((p) => p.startsWith(`${field}.`))) continue;
    for (const value of NOT_OBJECTS) {
      const odd = { ...mcp("probe", "tool_x", "Does a thing"), [field]: value };
      for (const q of ["thing", "tool_x"]) yield* callsFor(q, [other, odd], []);
    }
  }
}

/** Names that pass (and just fail) a test of the changed code: `prefix` + a word, a word + `suffix`, the part
 *  inside, the name itself; for a prefix other than MCP's own, also an MCP tool whose server has it (code that
 *  tests a name's server part: `mcp__plugin_probe__tool`). */
function testedNames(t: NameTest): string[] {
  switch (t.test) {
    case "prefix":
      return [
        `${t.text}probe`,
        `${t.text}probe__tool`,
        ...(t.text.startsWith("mcp__") || !/^[\w.-]+$/.test(t.text) ? [] : [`mcp__${t.text}probe__tool`]),
      ];
    case "suffix":
      return [`probe${t.text}`];
    case "part":
      return [`probe${t.text}tool`, t.text];
    case "equal":
      return [t.text];
  }
}

/** Names at the edges of a prefix-then-part parse, for the first few prefixes and parts the changed code tests. */
function prefixPartEdges(tests: readonly NameTest[]): string[] {
  const prefixes = [...new Set(tests.filter((t) => t.test === "prefix").map((t) => t.text))].slice(0, 4);
  const parts = [...new Set(tests.filter((t) => t.test === "part").map((t) => t.text))].slice(0, 4);
  const names = new Set<string>();
  for (const p of prefixes) {
    if (parts.length > 0) names.add(p);
    for (const s of parts.filter((x) => x !== p)) {
      names.add(`${p}${s}probe`);
      names.add(`${p}probe${s}`);
    }
  }
  return [...names];
}

/** A tool of that name: MCP-shaped (server and tool from the name) when the name is `mcp__server__tool`, with
 *  and without mcpInfo; otherwise a built-in. */
function toolsNamed(name: string): Tool[] {
  const m = /^mcp__(.+?)__(.+)$/s.exec(name);
  if (m) return [mcp(m[1]!, m[2]!, "Does a thing for you"), { name, description: "Does a thing for you", isMcp: true }];
  return [builtIn(name, "Does a thing for you")];
}

/**
 * A loaded tool that the query names by its last part or its words, not by its whole name (what a search says of a
 * tool the conversation already has), and for an MCP tool, two such tools of one name on two servers: the query
 * names both.
 */
function* loadedCalls(tool: Tool, word: string, base: readonly Tool[]): Generator<ContractCall> {
  yield { fn: "toolSearch", query: word, deferred: base.slice(0, 2), loaded: [tool] };
  // A name of words joined by `_` (`plugin_probe`), asked for by its words: the query is not the name itself.
  if (!tool.name.startsWith("mcp__") && tool.name.includes("_"))
    yield { fn: "toolSearch", query: tool.name.split("_").join(" "), deferred: base.slice(0, 2), loaded: [tool] };
  const info = tool.mcpInfo;
  if (!info?.serverName || !info.toolName) return;
  const twin = mcp(`${info.serverName}_two`, info.toolName, tool.description ?? "");
  yield { fn: "toolSearch", query: info.toolName, deferred: base.slice(0, 2), loaded: [tool, twin] };
}

/** Tools named to pass the tests the changed code makes on names, asked for in the ways a name is found. */
function* nameTestCalls(tests: readonly NameTest[]): Generator<ContractCall> {
  const base = [...GRAMMAR_TOOLS];
  const usable = (s: string) => s.length > 0 && s.length <= 120 && !/[\u0000-\u001f]/.test(s);
  const every: Tool[] = [];
  for (const t of tests) {
    for (const name of testedNames(t).filter(usable)) {
      const word = nameParts(name).at(-1) ?? "probe";
      for (const tool of toolsNamed(name)) {
        every.push(tool);
        yield* callsFor(name, [tool, ...base.slice(0, 3)], []);
        yield* callsFor(`select:${name}`, [tool], base.slice(0, 2));
        yield* callsFor(word, [tool, mcp("other", "tool_y", "Does a thing")], []);
        yield* callsFor(`${word} thing`, base.slice(0, 3), [tool]);
        yield { fn: "toolSearch", query: `select:${name}`, deferred: base.slice(0, 2), loaded: [tool] };
        yield* loadedCalls(tool, word, base);
      }
    }
  }
  // A prefix and a part the code looks for after it, at the edges of the name's parse: the part right after the
  // prefix (nothing between), at the end (nothing after), and the prefix alone (`mcp____x`, `mcp__x__`, `mcp__`).
  for (const name of prefixPartEdges(tests).filter(usable)) {
    for (const tool of toolsNamed(name)) {
      every.push(tool);
      yield* callsFor(name, [tool, ...base.slice(0, 3)], []);
      yield* callsFor(`select:${name}`, [tool], base.slice(0, 2));
      yield* callsFor("thing", [tool, mcp("other", "tool_y", "Does a thing")], []);
    }
  }
  // All of them together, asked for by each word of their names: a rule on one name that another brings along.
  const words = [...new Set(every.flatMap((t) => nameParts(t.name).map((w) => w.toLowerCase())))].slice(0, 24);
  for (const w of words) yield* callsFor(w, [...every.slice(0, 24), ...base.slice(0, 2)], []);
}

/** A second tool whose alias is another tool's name, for each two names the changed code compares for
 *  equality (`name === a && entry.name === b`: a lookup by name or alias that prefers one of them), those
 *  compared side by side first, both ways, then the others, and a pair of its own (also when the changed code
 *  compares no names but reads aliases): the holder (named the one,
 *  the other as its alias) before or after the tool of that name, deferred or loaded, asked for by that name,
 *  `select:` of it, and a word only one of the two descriptions holds (a lookup that picks the other tool
 *  reads the other description). */
function* aliasCalls(tests: readonly NameTest[], members: readonly string[]): Generator<ContractCall> {
  const usable = (s: string) => /^[\p{L}\p{N}_.-]{1,60}$/u.test(s) && !s.startsWith("mcp__");
  const names = [...new Set(tests.filter((t) => t.test === "equal").map((t) => t.text))].filter(usable).slice(0, 6);
  const pairs: Array<[string, string]> = [];
  const add = (x: string, y: string) => {
    if (x !== y && !pairs.some(([p, q]) => p === x && q === y)) pairs.push([x, y]);
  };
  names.forEach((x, i) => {
    const y = names[i + 1];
    if (y === undefined) return;
    add(x, y);
    add(y, x);
  });
  for (const x of names) for (const y of names) add(x, y);
  // Code that reads aliases, or compares names, may look tools up by either: a pair of its own as well.
  if (names.length === 0 && !members.includes("aliases")) return;
  add("Probe", "ProbeTool");
  const held = (x: string, y: string) => ({
    named: builtIn(x, "Zephyr widget"),
    holder: builtIn(y, "Runs a sandbox", { aliases: [x] }),
  });
  // First, for every pair, the holder ahead of the tool of that name (a lookup that takes the first answering
  // tool takes the holder); then, for the first few pairs of compared names (those compared side by side), the
  // other layouts and queries. Bounded so that the rest of the budget (and of the kinds reported) goes to the rest.
  for (const [x, y] of pairs.slice(0, 12)) {
    const { named, holder } = held(x, y);
    for (const q of ["zephyr", `select:${x}`]) yield* callsFor(q, [holder, named], []);
  }
  for (const [x, y] of pairs.slice(0, Math.min(4, pairs.length - 1))) {
    const { named, holder } = held(x, y);
    yield* callsFor("sandbox", [holder, named], []);
    yield* callsFor(x, [holder, named], []);
    for (const q of ["zephyr", `select:${x}`]) {
      yield* callsFor(q, [named, holder], []);
      yield* callsFor(q, [named], [holder]);
      yield* callsFor(q, [holder], [named]);
    }
  }
}

/** Sample characters of a regular expression's source: its literal characters and those of its classes. */
function regexCharacters(source: string): string[] {
  const chars = new Set<string>();
  const escapes: Record<string, string[]> = { s: [" ", "\t"], d: ["7"], w: ["a", "_"], b: [" "], n: ["\n"], t: ["\t"] };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      const e = source[++i] ?? "";
      for (const x of escapes[e] ?? [e]) chars.add(x);
    } else if (!"^$()[]{}*+?|".includes(c)) chars.add(c);
  }
  return [...chars].filter((c) => c.length > 0).slice(0, 8);
}

/** A long text of the changed code (a paragraph it adds to or strips from a description): in a description, after
 *  and before words of its own, the query a word of it. */
function* longStringCalls(strings: readonly string[]): Generator<ContractCall> {
  for (const s of strings.filter((x) => x.length > 60 && x.length <= 4000).slice(0, 40)) {
    const inner = words(s).filter((w) => w.length > 3);
    for (const w of new Set([inner[2], inner[inner.length - 1]].filter((x): x is string => x !== undefined))) {
      yield* callsFor(w.toLowerCase(), [mcp("probe", "tool_x", `Does a thing. ${s}`), mcp("other", "tool_y", "Does a thing")], []);
      yield* callsFor(w.toLowerCase(), [builtIn("ProbeTool", `${s}\n\nDoes a thing.`)], []);
    }
  }
}

/** The changed code's strings and regexes as queries, tool names and `select:` names, and their characters
 *  joining a tool's name parts. */
function* changedStringCalls(strings: readonly string[]): Generator<ContractCall> {
  const base = [...GRAMMAR_TOOLS];
  const usable = (s: string) => s.length > 0 && s.length <= 60 && !/[\u0000-\u001f]/.test(s);
  for (const s of strings.filter(usable).slice(0, 48)) {
    const plain = s.replace(/[\\^$()[\]{}*+?|]/g, "");
    for (const q of new Set([s, plain, `select:${plain}`, `${plain} issue`, `${plain}slack`])) yield* callsFor(q, base, []);
    if (plain.length > 0) {
      const named = builtIn(plain, "Does a thing for you");
      yield* callsFor(plain, [named, ...base.slice(0, 3)], []);
      yield* callsFor(`select:${plain}`, [named], base.slice(0, 2));
    }
    for (const c of regexCharacters(s)) {
      for (const q of new Set([`create${c}issue`, `slack${c}`, `${c}slack`, `web${c}fetch`])) yield* callsFor(q, base, []);
      yield* callsFor("create issue", [mcp("github", `create${c}issue`, "Create an issue")], []);
    }
  }
}

/** What the changed lines read and compare, taken in turn: the calls most likely to show a small change. */
function* changedCalls(tokens: CodeTokens): Generator<ContractCall> {
  const c = tokens.changedCode;
  yield* roundRobin([
    [thresholdCalls(c.numbers), 6],
    [wordCapCalls(c.numbers), 6],
    [nameTestCalls(c.nameTests), 9],
    [aliasCalls(c.nameTests, c.members), 6],
    [notObjectCalls(c.members, c.paths), 3],
    [fieldCalls(c.members, c.paths), 6],
    [changedStringCalls(c.strings), 6],
    [longStringCalls(c.strings), 3],
    [numberCalls(c.numbers), 6],
    [toolCountCalls(c.numbers), 3],
    [tieCalls(), 3],
  ]);
}

/** Each source in turn, `perTurn` calls from each, until all are spent. */
function* roundRobin(sources: Array<[Iterator<ContractCall>, number]>): Generator<ContractCall> {
  const live = new Set(sources);
  while (live.size > 0) {
    for (const entry of [...live]) {
      const [s, perTurn] = entry;
      for (let i = 0; i < perTurn; i++) {
        const next = s.next();
        if (next.done) {
          live.delete(entry);
          break;
        }
        yield next.value;
      }
    }
  }
}

/** Calls from the changed code that come before any other (the rest of them join the turns). */
const CHANGED_FIRST = 600;
/** The verification corpus's seed here: fixed, so that the candidates are the same on every run. */
export const WITNESS_SEED = 1;

/** The changed code's calls first, then every source in turn, a few calls from each, until all are spent (the
 *  corpus never is). The catalog's 280-tool calls cost the most, so fewer of them come per turn (all within the
 *  default budget still). The same tokens give the same sequence. */
export function* witnessCandidates(tokens: CodeTokens, seed = WITNESS_SEED): Generator<ContractCall> {
  const changed = changedCalls(tokens);
  for (let i = 0; i < CHANGED_FIRST; i++) {
    const next = changed.next();
    if (next.done) break;
    yield next.value;
  }
  yield* roundRobin([
    [changed, 6],
    [stringCalls(tokens), 12],
    [numberCalls(tokens.numbers), 8],
    [grammarCalls(), 12],
    [catalogCalls(), 4],
    [corpusCalls(seed), 12],
  ]);
}
