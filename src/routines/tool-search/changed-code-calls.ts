/**
 * The witness search's calls built from the changed lines (witness-candidates.ts takes them in turn): their numbers
 * as thresholds and caps, ties, the properties they read, the tests they make on names and the names they compare,
 * their strings and regexes.
 */
import type { NameTest } from "../../diff/code-tokens.js";
import type { ContractCall } from "../../diff/witness-run.js";
import type { Tool } from "./corpus.js";
import { CONTRACT_INNER_FIELDS, NOT_OBJECT_KINDS } from "./field-values.js";
import { builtIn, callsFor, GRAMMAR_TOOLS, mcp, nameParts, words } from "./grammar-calls.js";

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
export function* thresholdCalls(numbers: readonly number[]): Generator<ContractCall> {
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
export function* wordCapCalls(numbers: readonly number[]): Generator<ContractCall> {
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
export function* toolCountCalls(numbers: readonly number[]): Generator<ContractCall> {
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
export function* tieCalls(): Generator<ContractCall> {
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
export function* fieldCalls(members: readonly string[], paths: readonly string[] = []): Generator<ContractCall> {
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
export function* notObjectCalls(members: readonly string[], paths: readonly string[]): Generator<ContractCall> {
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
export function* nameTestCalls(tests: readonly NameTest[]): Generator<ContractCall> {
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
export function* aliasCalls(tests: readonly NameTest[], members: readonly string[]): Generator<ContractCall> {
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
export function* longStringCalls(strings: readonly string[]): Generator<ContractCall> {
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
export function* changedStringCalls(strings: readonly string[]): Generator<ContractCall> {
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
