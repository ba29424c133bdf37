/**
 * A deterministic corpus of tool-search inputs for checking that a lifted module behaves like the original.
 *
 * Each case is one call's inputs: a query, the deferred tools searched, the tools already loaded and, sometimes,
 * maxResults. Catalogs mix MCP tools (`mcp__<server>__<tool>`, snake_case, camelCase, dots and spaces in server
 * names, `mcpInfo` that agrees, disagrees in case or disagrees outright, `isMcp` set or not, prefix-less MCP tools)
 * and built-ins (CamelCase names, aliases). Descriptions put words at and off word boundaries, next to punctuation
 * and regex-special characters; some searchHints and descriptions are longer than the caps of every generation.
 * Queries cover single and several words, `+required` terms, `select:` (single and lists with missing names,
 * duplicates, spaces, other case, aliases), exact names in another case, `mcp__server` prefixes, inputs over and
 * at the caps (32 words, 16 384 characters, 64 select names), empty and whitespace queries, unicode, and
 * regex-special characters.
 *
 * Everything comes from one seeded PRNG: the same seed and count give the same cases, byte for byte.
 */

import type { Tool } from "../../../signatures/tool-search/lifted-module.d.ts";
import { CONTRACT_INNER_FIELDS, fieldMode, queryWords, setField, setInnerField } from "./field-values.js";

/** A tool as the scorer-module contract defines it: written once, in the declarations every lift writes
 *  beside its module (signatures/tool-search/lifted-module.d.ts, shipped in the package). */
export type { Tool };

export interface CorpusCase {
  query: string;
  deferred: Tool[];
  loaded: Tool[];
  maxResults?: number;
  /** Which generator made the query (for reports; not an input). */
  kind: QueryKind;
}

export const QUERY_KINDS = [
  "word",
  "words",
  "required",
  "select-one",
  "select-list",
  "exact-name",
  "mcp-prefix",
  "caps-words",
  "caps-chars",
  "caps-select",
  "empty",
  "unicode",
  "regex",
  "mixed-case",
  "name-parts",
  "hint",
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

const KIND_WEIGHTS: Record<QueryKind, number> = {
  word: 12,
  words: 12,
  required: 8,
  "select-one": 7,
  "select-list": 8,
  "exact-name": 6,
  "mcp-prefix": 6,
  "caps-words": 4,
  "caps-chars": 3,
  "caps-select": 3,
  empty: 4,
  unicode: 6,
  regex: 7,
  "mixed-case": 5,
  "name-parts": 5,
  hint: 4,
};

/** The caps of the later generations, and lengths on both sides of them. */
export const CAPS = { queryChars: 16384, queryWords: 32, selectNames: 64, searchHintChars: 4096 } as const;

// ---------------------------------------------------------------------------------------------------------
// PRNG

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
}

/** sfc32 seeded through splitmix32: small, fast, and the same on every platform. */
export function createRng(seed: number): Rng {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  // The state [a, b, c, d] lives in a typed array: as closure variables, each value of 2^31 or more was a heap
  // number, two or so per draw, and the corpus makes millions of draws. Stores wrap modulo 2^32, as `>>> 0` did.
  const state = new Uint32Array([split(), split(), split(), split()]);
  const u32 = () => {
    const a = state[0]!,
      b = state[1]!,
      c = state[2]!,
      d = state[3]!;
    const t = (((a + b) >>> 0) + d) >>> 0;
    state[3] = d + 1;
    state[0] = b ^ (b >>> 9);
    state[1] = c + (c << 3);
    state[2] = ((c << 21) | (c >>> 11)) + t;
    return t;
  };
  for (let i = 0; i < 12; i++) u32();
  // Each method draws from u32 directly (the same arithmetic as going through next): the corpus makes
  // millions of draws, and a call through the object per draw was a measurable part of its time.
  const int = (n: number) => Math.floor((u32() / 4294967296) * n);
  const rng: Rng = {
    next: () => u32() / 4294967296,
    int,
    range: (lo, hi) => lo + int(hi - lo + 1),
    chance: (p) => u32() / 4294967296 < p,
    pick: (items) => {
      if (items.length === 0) throw new RangeError("pick from an empty list");
      return items[int(items.length)]!;
    },
    shuffle: (items) => {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const t = out[i]!;
        out[i] = out[j]!;
        out[j] = t;
      }
      return out;
    },
  };
  return rng;
}

// ---------------------------------------------------------------------------------------------------------
// Vocabulary

const SERVERS = [
  "github",
  "slack",
  "jira",
  "postgres",
  "filesystem",
  "browser",
  "aws",
  "linear",
  "notion",
  "sentry",
  "gitlab",
  "google-drive",
  "confluence",
  "stripe",
  "docker",
  "kubernetes",
  "figma",
  "asana",
  "playwright",
  "context7",
];
/** Server names that stress parsing: dots, spaces, case, underscores, single letters. */
const ODD_SERVERS = ["my.server", "My Server", "aws.s3", "claude_ai_Gmail", "GitHub", "db_prod", "a", "x-y_z", "Slack", "data.v2.api"];
const ALL_SERVERS = [...SERVERS, ...ODD_SERVERS];
const VERBS = [
  "create",
  "get",
  "list",
  "search",
  "update",
  "delete",
  "read",
  "write",
  "send",
  "run",
  "query",
  "fetch",
  "add",
  "remove",
  "merge",
  "close",
  "open",
  "upload",
  "download",
  "navigate",
  "click",
  "take",
  "describe",
  "execute",
  "find",
];
const NOUNS = [
  "issue",
  "issues",
  "pull_request",
  "repository",
  "file",
  "files",
  "comment",
  "message",
  "channel",
  "user",
  "table",
  "row",
  "bucket",
  "object",
  "page",
  "screenshot",
  "branch",
  "commit",
  "ticket",
  "project",
  "database",
  "schema",
  "secret",
  "deployment",
  "pod",
  "log",
  "event",
  "invoice",
  "customer",
  "sql",
  "notebook",
  "cell",
  "web",
  "shell",
];
const BUILTINS: ReadonlyArray<{ name: string; aliases?: string[]; words: string[] }> = [
  { name: "Bash", words: ["shell", "command", "terminal"] },
  { name: "Read", words: ["file", "read", "contents"] },
  { name: "Edit", words: ["file", "replace", "string"] },
  { name: "Write", words: ["file", "write", "create"] },
  { name: "MultiEdit", words: ["edits", "file", "multiple"] },
  { name: "Glob", words: ["pattern", "files", "match"] },
  { name: "Grep", words: ["search", "regex", "ripgrep"] },
  { name: "NotebookEdit", words: ["notebook", "jupyter", "cell", "edit"] },
  { name: "NotebookRead", words: ["notebook", "jupyter", "read"] },
  { name: "WebFetch", words: ["web", "fetch", "url", "content"] },
  { name: "WebSearch", words: ["web", "search", "results"] },
  { name: "TodoWrite", words: ["todo", "task", "list"] },
  { name: "Task", aliases: ["Agent"], words: ["agent", "subagent", "task"] },
  { name: "Agent", aliases: ["Task"], words: ["agent", "launch", "task"] },
  { name: "KillShell", aliases: ["KillBash"], words: ["kill", "shell", "background"] },
  { name: "BashOutput", aliases: ["AgentOutputTool"], words: ["output", "shell", "background"] },
  { name: "TaskOutput", aliases: ["BashOutput", "AgentOutputTool"], words: ["output", "task"] },
  { name: "TaskStop", aliases: ["KillShell"], words: ["stop", "task"] },
  { name: "ExitPlanMode", words: ["plan", "mode", "exit"] },
  { name: "EnterPlanMode", words: ["plan", "mode", "enter"] },
  { name: "SlashCommand", words: ["slash", "command"] },
  { name: "Skill", words: ["skill", "invoke"] },
  { name: "AskUserQuestion", words: ["ask", "user", "question"] },
  { name: "LSP", words: ["language", "server", "symbols"] },
  { name: "ListMcpResourcesTool", words: ["mcp", "resources", "list"] },
  { name: "ReadMcpResourceTool", words: ["mcp", "resource", "read"] },
  { name: "CronCreate", words: ["cron", "schedule", "create"] },
  { name: "REPL", words: ["repl", "javascript", "evaluate"] },
  { name: "PowerShell", words: ["powershell", "windows", "command"] },
  { name: "EnterWorktree", words: ["git", "worktree", "enter"] },
  { name: "WaitForMcpServers", words: ["wait", "mcp", "servers"] },
];
const FILLER = [
  "the",
  "a",
  "to",
  "of",
  "and",
  "for",
  "with",
  "from",
  "in",
  "this",
  "tool",
  "use",
  "when",
  "you",
  "need",
  "returns",
  "given",
  "optional",
  "required",
  "parameter",
  "result",
  "data",
  "id",
  "name",
  "value",
  "list",
  "all",
  "new",
];
/** The word lists a sentence picks from, built once: a pick over a fresh spread per word made most of the
 *  corpus's garbage (generation took ~1 s of a verified lift). */
const VERBS_AND_NOUNS = [...VERBS, ...NOUNS];
const SENTENCE_ENDS = [".", ".", "!", "", ":", " —", "\n"];
const UNICODE_WORDS = [
  "café",
  "naïve",
  "résumé",
  "Ångström",
  "straße",
  "İstanbul",
  "ﬁle",
  "e\u0301tude",
  "日本語",
  "検索",
  "도구",
  "поиск",
  "🚀",
  "🔧deploy",
  "ツール",
  "zero\u200bwidth",
  "Ωmega",
  "ǅemal",
];
const REGEX_BITS = [
  ".*",
  "a+b",
  "c++",
  "$HOME",
  "^issue",
  "issue$",
  "(create)",
  "[a-z]",
  "{1,2}",
  "a|b",
  "\\d",
  "?",
  "issue*",
  "create.issue",
  "(?:x)",
  "\\",
  "[",
  "(",
  ")",
  "+",
  "*",
  "$",
  "^",
  "|",
  "{",
  "}",
  "]",
  ".",
  "$&",
  "$1",
];

const cap = (w: string) => (w.length === 0 ? w : w[0]!.toUpperCase() + w.slice(1));
const camel = (parts: string[]) => parts.map((p, i) => (i === 0 ? p : cap(p))).join("");

// ---------------------------------------------------------------------------------------------------------
// Catalogs

interface Catalog {
  deferred: Tool[];
  loaded: Tool[];
  /** Words that occur in names, descriptions and hints, for queries that match something. */
  words: string[];
  hintWords: string[];
}

function mcpToolName(rng: Rng): string {
  const v = rng.pick(VERBS);
  const n = rng.pick(NOUNS);
  switch (rng.int(9)) {
    case 0:
    case 1:
    case 2:
      return `${v}_${n}`;
    case 3:
      return `${v}_${n}_${rng.pick(NOUNS)}`;
    case 4:
      return camel([v, ...n.split("_")]);
    case 5:
      return `${n.replace(/_/g, "")}.${v}`;
    case 6:
      return rng.pick([v, n, `${v}-${n}`, `${v.toUpperCase()}_${n}`, `${cap(v)}${cap(n)}`]);
    case 7:
      return `${v}_v${rng.range(1, 3)}_${n}`;
    default:
      return `${v}${cap(n.split("_")[0]!)}s`;
  }
}

/** A word in a variant that matches, or deliberately does not match, at word boundaries. */
function decorate(rng: Rng, w: string): string {
  switch (rng.int(16)) {
    case 0:
      return `${w}s`;
    case 1:
      return `re${w}`;
    case 2:
      return `${w}_id`;
    case 3:
      return `(${w})`;
    case 4:
      return `${w}.`;
    case 5:
      return `\`${w}\``;
    case 6:
      return `${w}-like`;
    case 7:
      return w.toUpperCase();
    case 8:
      return cap(w);
    case 9:
      return `"${w}",`;
    case 10:
      return `${w}/${rng.pick(FILLER)}`;
    default:
      return w;
  }
}

/**
 * Text made of pieces (sentences, their ends, separators) and joined once, into one flat string. Texts built
 * by `+=` were ropes of thousands of strings that stayed alive until printed; with the arrays and strings
 * made per sentence, they were most of what the corpus allocated, and most of its time went to the GC.
 */
class Text {
  private readonly parts: string[] = [];
  /** The length of the joined text. */
  length = 0;

  add(piece: string): void {
    this.parts.push(piece);
    this.length += piece.length;
  }

  /** A place for a piece that is drawn later (see `fill`). */
  hole(): number {
    this.parts.push("");
    return this.parts.length - 1;
  }

  fill(hole: number, piece: string): void {
    this.parts[hole] = piece;
    this.length += piece.length;
  }

  toString(): string {
    return this.parts.join("");
  }
}

/** The word lists a sentence draws from, with their words capitalised, for a sentence's first word. */
const CAPITALISED = new Map<readonly string[], string[]>(
  [REGEX_BITS, UNICODE_WORDS, VERBS_AND_NOUNS, FILLER].map((list) => [list, list.map(cap)]),
);

/** A word from `list`, capitalised or not: the same draw either way. */
function pickWord(rng: Rng, list: readonly string[], capitalised: boolean): string {
  return rng.pick(capitalised ? CAPITALISED.get(list)! : list);
}

function sentenceWord(rng: Rng, keyWords: string[], capitalised: boolean): string {
  const r = rng.next();
  if (r < 0.3 && keyWords.length > 0) {
    const w = decorate(rng, rng.pick(keyWords));
    return capitalised ? cap(w) : w;
  }
  if (r < 0.37) return pickWord(rng, REGEX_BITS, capitalised);
  if (r < 0.41) return pickWord(rng, UNICODE_WORDS, capitalised);
  if (r < 0.5) return pickWord(rng, VERBS_AND_NOUNS, capitalised);
  return pickWord(rng, FILLER, capitalised);
}

/** One array per sentence length, reused for each sentence's words (sentences are made one at a time): an array
 *  per sentence was a good part of what the corpus allocated. */
const SENTENCE_WORDS: string[][] = [];

/** `len` words and an ending, the first word capitalised (which is what capitalising the whole sentence did,
 *  also when that word is empty). */
function addSentence(rng: Rng, keyWords: string[], len: number, out: Text): void {
  const words = (SENTENCE_WORDS[len] ??= new Array<string>(len).fill(""));
  for (let i = 0; i < len; i++) words[i] = sentenceWord(rng, keyWords, i === 0);
  out.add(words.join(" "));
  out.add(rng.pick(SENTENCE_ENDS));
}

function sentence(rng: Rng, keyWords: string[], len: number): string {
  const out = new Text();
  addSentence(rng, keyWords, len, out);
  return out.toString();
}

const SENTENCE_SEPARATORS = [" ", "\n", "\n\n"];
const LONG_TEXT_TARGETS = [2100, 4200, 9000];

function description(rng: Rng, keyWords: string[]): string | undefined {
  const r = rng.next();
  if (r < 0.04) return undefined;
  if (r < 0.07) return "";
  const out = new Text();
  // The separator between sentences is drawn after them: holes until then.
  const holes: number[] = [];
  const sentences = rng.range(1, 4);
  for (let i = 0; i < sentences; i++) {
    if (i > 0) holes.push(out.hole());
    addSentence(rng, keyWords, rng.range(3, 14), out);
  }
  const separator = rng.pick(SENTENCE_SEPARATORS);
  for (const h of holes) out.fill(h, separator);
  // Long descriptions with a marker near the end: beyond 2048 and 4096 characters, where releases cut them.
  if (rng.chance(0.04)) {
    const target = rng.pick(LONG_TEXT_TARGETS);
    while (out.length < target) {
      out.add(" ");
      addSentence(rng, keyWords, 12, out);
    }
    out.add(" ");
    out.add(rng.pick(["zebra", "endmarker", keyWords[0] ?? "tail"]));
  }
  return out.toString();
}

/** Hint phrases besides the tool's own words. */
const HINT_PHRASES = [
  "start here",
  "playbook",
  "instructions",
  "how to use",
  "billing",
  "invoices",
  "triage",
  "deploy",
  "kanban",
  "sprint",
  "warehouse",
];
const HINT_SEPARATORS = [", ", " ", "; ", " | "];

/** What `rng.pick([...first, ...second])` picks (the same draw), without making that list. */
function pickFromEither<T>(rng: Rng, first: readonly T[], second: readonly T[]): T {
  const i = rng.int(first.length + second.length);
  return i < first.length ? first[i]! : second[i - first.length]!;
}

function searchHint(rng: Rng, keyWords: string[], hintWords: string[]): string | undefined {
  if (!rng.chance(0.3)) return undefined;
  if (rng.chance(0.1)) {
    // Longer than the 4096-character cut, with a word that only exists past the cut.
    const out = new Text();
    const target = CAPS.searchHintChars + rng.range(0, 600);
    while (out.length < target) {
      addSentence(rng, keyWords, 10, out);
      out.add(" ");
    }
    const tail = rng.pick(["hintbeyondcut", "quokka", "farawayword"]);
    hintWords.push(tail);
    out.add(tail);
    return out.toString();
  }
  const count = rng.range(1, 6);
  const phrases: string[] = [];
  for (let i = 0; i < count; i++) {
    const phrase = pickFromEither(rng, HINT_PHRASES, keyWords);
    phrases.push(phrase);
    // The hint's words, for queries: a phrase's words one by one.
    if (phrase.includes(" ")) hintWords.push(...phrase.split(" "));
    else hintWords.push(phrase);
  }
  return phrases.join(rng.pick(HINT_SEPARATORS));
}

const isLowerAscii = (c: number) => c >= 97 && c <= 122;
const isUpperAscii = (c: number) => c >= 65 && c <= 90;

/**
 * The lower-case words of a tool name, added to `out`: the name split at `.`, `_` and `-` and between a
 * lower-case and an upper-case ASCII letter, empty words dropped. What splitting at
 * /[._-]|(?<=[a-z])(?=[A-Z])/ gives, without a regex and its arrays for each of the corpus's tools.
 */
function addToolNameWords(name: string, out: string[]): void {
  const addWord = (from: number, to: number) => {
    if (to > from) out.push(name.slice(from, to).toLowerCase());
  };
  let start = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 46 /* . */ || c === 95 /* _ */ || c === 45 /* - */) {
      addWord(start, i);
      start = i + 1;
    } else if (i > 0 && isUpperAscii(c) && isLowerAscii(name.charCodeAt(i - 1))) {
      addWord(start, i);
      start = i;
    }
  }
  addWord(start, name.length);
}

/** The lower-case words of a server name: split at `.`, `_`, space and `-`. */
const serverNameWords = (server: string) =>
  server
    .split(/[._ -]/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
/** Those of every server, made once. */
const SERVER_WORDS = new Map(ALL_SERVERS.map((server) => [server, serverNameWords(server)]));

function mcpTool(rng: Rng, server: string, words: string[], hintWords: string[]): Tool {
  const toolName = mcpToolName(rng);
  const keyWords = [...(SERVER_WORDS.get(server) ?? serverNameWords(server))];
  addToolNameWords(toolName, keyWords);
  words.push(...keyWords, server, toolName);
  const noPrefix = rng.chance(0.03);
  const tool: Tool = { name: noPrefix ? toolName : `mcp__${server}__${toolName}` };
  const desc = description(rng, keyWords);
  if (desc !== undefined) tool.description = desc;
  const hint = searchHint(rng, keyWords, hintWords);
  if (hint !== undefined) tool.searchHint = hint;
  const m = rng.next();
  if (noPrefix) tool.isMcp = true;
  else if (m < 0.35) tool.isMcp = true;
  else if (m < 0.4) tool.isMcp = false;
  const info = rng.next();
  if (noPrefix || info < 0.4) tool.mcpInfo = { serverName: server, toolName };
  else if (info < 0.5)
    tool.mcpInfo = {
      serverName: rng.chance(0.5) ? server.toUpperCase() : cap(server),
      toolName: rng.chance(0.5) ? toolName.toLowerCase() : cap(toolName),
    };
  else if (info < 0.55) tool.mcpInfo = { serverName: rng.pick(SERVERS), toolName: mcpToolName(rng) };
  if (rng.chance(0.02)) tool.aliases = [`${server}_${toolName}`];
  return tool;
}

/** Each built-in with the words it adds to its catalog's (its name, its words, its name's words), made once. */
const BUILTINS_WITH_WORDS = BUILTINS.map((b) => ({
  ...b,
  catalogWords: [b.name, ...b.words, ...b.name.split(/(?<=[a-z])(?=[A-Z])/).map((w) => w.toLowerCase())],
}));

function builtinTool(rng: Rng, words: string[], hintWords: string[]): Tool {
  const b = rng.pick(BUILTINS_WITH_WORDS);
  words.push(...b.catalogWords);
  const tool: Tool = { name: b.name };
  const desc = description(rng, b.words);
  if (desc !== undefined) tool.description = desc;
  if (rng.chance(0.05)) {
    const hint = searchHint(rng, b.words, hintWords);
    if (hint !== undefined) tool.searchHint = hint;
  }
  const m = rng.next();
  if (m < 0.07) tool.isMcp = false;
  else if (m < 0.09) tool.isMcp = true;
  if (b.aliases && rng.chance(0.8)) tool.aliases = [...b.aliases];
  if (b.aliases) words.push(...b.aliases);
  return tool;
}

function catalog(rng: Rng): Catalog {
  const words: string[] = [];
  const hintWords: string[] = [];
  const r = rng.next();
  const size = r < 0.04 ? 0 : r < 0.1 ? rng.range(1, 2) : r < 0.93 ? rng.range(3, 24) : rng.range(30, 70);
  const servers = rng.shuffle(ALL_SERVERS).slice(0, rng.range(1, 5));
  if (rng.chance(0.3)) servers.push(rng.pick(ODD_SERVERS));
  const builtinShare = rng.pick([0, 0, 0.1, 0.3, 0.6]);
  const deferred: Tool[] = [];
  for (let i = 0; i < size; i++) {
    deferred.push(rng.chance(builtinShare) ? builtinTool(rng, words, hintWords) : mcpTool(rng, rng.pick(servers), words, hintWords));
  }
  // Duplicate names, in place or with another description.
  if (deferred.length > 1 && rng.chance(0.05)) {
    const t = rng.pick(deferred);
    deferred.splice(rng.int(deferred.length + 1), 0, rng.chance(0.5) ? { ...t } : { ...t, description: sentence(rng, words, 5) });
  }
  const loaded: Tool[] = [];
  const nLoaded = rng.chance(0.3) ? 0 : rng.range(1, 8);
  for (let i = 0; i < nLoaded; i++) {
    loaded.push(rng.chance(0.75) ? builtinTool(rng, words, hintWords) : mcpTool(rng, rng.pick(servers), words, hintWords));
  }
  // A tool both deferred and loaded.
  if (deferred.length > 0 && rng.chance(0.1)) loaded.push({ ...rng.pick(deferred) });
  // An mcpInfo without toolName, in a few catalogs only: releases that read it throw, skip the tool or miss
  // it in select:, and most cases must still return values.
  const withInfo = deferred.filter((t) => t.mcpInfo?.toolName !== undefined);
  if (withInfo.length > 0 && rng.chance(0.02)) {
    const i = deferred.indexOf(rng.pick(withInfo));
    deferred[i] = { ...deferred[i]!, mcpInfo: { serverName: deferred[i]!.mcpInfo!.serverName } };
  }
  return { deferred, loaded, words, hintWords };
}

// ---------------------------------------------------------------------------------------------------------
// Queries

function changeCase(rng: Rng, s: string): string {
  switch (rng.int(4)) {
    case 0:
      return s.toUpperCase();
    case 1:
      return s.toLowerCase();
    case 2:
      return [...s].map((c) => (rng.chance(0.5) ? c.toUpperCase() : c.toLowerCase())).join("");
    default:
      return cap(s);
  }
}

function allTools(c: Catalog): Tool[] {
  return [...c.deferred, ...c.loaded];
}

function someWord(rng: Rng, c: Catalog): string {
  const r = rng.next();
  if (r < 0.7 && c.words.length > 0) return rng.pick(c.words);
  if (r < 0.8) return rng.pick(FILLER);
  if (r < 0.9) return rng.pick(VERBS);
  return rng.pick(NOUNS);
}

function someName(rng: Rng, c: Catalog): string {
  const tools = allTools(c);
  const r = rng.next();
  if (tools.length > 0 && r < 0.6) return rng.pick(tools).name;
  if (tools.length > 0 && r < 0.7) return changeCase(rng, rng.pick(tools).name);
  if (r < 0.8) {
    const withAlias = tools.filter((t) => t.aliases && t.aliases.length > 0);
    if (withAlias.length > 0) return rng.pick(rng.pick(withAlias).aliases!);
  }
  if (r < 0.9) return `mcp__${rng.pick(SERVERS)}__${mcpToolName(rng)}`;
  return rng.pick(BUILTINS).name;
}

function separator(rng: Rng): string {
  return rng.pick([" ", " ", " ", " ", "  ", "\t", " \n ", "\u00a0"]);
}

function joinWords(rng: Rng, words: string[]): string {
  let s = words[0] ?? "";
  for (let i = 1; i < words.length; i++) s += separator(rng) + words[i];
  return s;
}

function selectPrefix(rng: Rng): string {
  return rng.pick(["select:", "select:", "select:", "select:", "SELECT:", "Select:", "select: ", " select:"]);
}

function selectList(rng: Rng, c: Catalog, n: number): string {
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    if (r < 0.08 && names.length > 0)
      names.push(rng.pick(names)); // duplicate
    else if (r < 0.12)
      names.push(""); // empty entry
    else names.push(someName(rng, c));
  }
  const sep = () => rng.pick([",", ",", ",", ", ", " ,", " , "]);
  let s = names[0] ?? "";
  for (let i = 1; i < names.length; i++) s += sep() + names[i];
  if (rng.chance(0.05)) s += ",";
  return s;
}

function exactlyChars(rng: Rng, c: Catalog, n: number): string {
  if (rng.chance(0.2))
    return rng
      .pick(["x", "issue", someWord(rng, c)])
      .repeat(n)
      .slice(0, n);
  const out = new Text();
  while (out.length < n) {
    if (out.length > 0) out.add(" ");
    out.add(someWord(rng, c));
  }
  return out.toString().slice(0, n);
}

/** Blank and nearly blank queries: what a select or prefix reads when nothing follows it. */
const EMPTY_QUERIES = [
  "",
  "",
  "",
  " ",
  "   ",
  "\t",
  "\n",
  " \t\n ",
  "+",
  "++",
  "select:",
  "select: ",
  "select:,",
  "select:,,",
  "mcp__",
  "mcp",
  "\u00a0",
  "\u3000",
];

/** `mcp__server` and its variants: a trailing separator, a verb's start, another case, a word after, a cut name. */
function mcpPrefixQuery(rng: Rng, c: Catalog): string {
  const mcp = allTools(c).filter((t) => t.name.startsWith("mcp__"));
  const server = mcp.length > 0 && rng.chance(0.8) ? rng.pick(mcp).name.split("__")[1]! : rng.pick(SERVERS);
  switch (rng.int(6)) {
    case 0:
      return `mcp__${server}`;
    case 1:
      return `mcp__${server}__`;
    case 2:
      return `mcp__${server}__${rng.pick(VERBS).slice(0, rng.range(1, 4))}`;
    case 3:
      return changeCase(rng, `mcp__${server}`);
    case 4:
      return `mcp__${server} ${someWord(rng, c)}`;
    default:
      return `mcp__${server.slice(0, Math.max(1, server.length - 2))}`;
  }
}

/** Parts of a tool's name: all of them, one, the start of one, or shuffled. */
function namePartsQuery(rng: Rng, c: Catalog): string {
  const tools = allTools(c);
  const name = tools.length > 0 ? rng.pick(tools).name : rng.pick(BUILTINS).name;
  const parts = name.split(/__|_|\.|\s|(?<=[a-z])(?=[A-Z])/).filter((p) => p !== "" && p !== "mcp");
  const p = parts.length > 0 ? parts : [name];
  switch (rng.int(4)) {
    case 0:
      return p.join(" ").toLowerCase();
    case 1:
      return rng.pick(p);
    case 2:
      return rng.pick(p).slice(0, rng.range(2, 5));
    default:
      return joinWords(rng, rng.shuffle(p));
  }
}

function query(rng: Rng, kind: QueryKind, c: Catalog): string {
  switch (kind) {
    case "word":
      return someWord(rng, c);
    case "words":
      return joinWords(
        rng,
        Array.from({ length: rng.range(2, 6) }, () => someWord(rng, c)),
      );
    case "required": {
      const n = rng.range(1, 5);
      const words = Array.from({ length: n }, () => someWord(rng, c));
      const k = rng.range(1, n);
      for (let i = 0; i < k; i++) words[rng.int(n)] = "+" + words[rng.int(n)]!.replace(/^\+/, "");
      if (rng.chance(0.05)) words.push("+");
      return joinWords(rng, words);
    }
    case "select-one": {
      const name = someName(rng, c);
      return selectPrefix(rng) + (rng.chance(0.1) ? ` ${name} ` : name);
    }
    case "select-list":
      return selectPrefix(rng) + selectList(rng, c, rng.range(2, 8));
    case "exact-name": {
      const tools = allTools(c);
      const name = tools.length > 0 ? rng.pick(tools).name : rng.pick(BUILTINS).name;
      const r = rng.next();
      return r < 0.4 ? name : r < 0.85 ? changeCase(rng, name) : ` ${name} `;
    }
    case "mcp-prefix":
      return mcpPrefixQuery(rng, c);
    case "caps-words": {
      const n = rng.pick([CAPS.queryWords - 1, CAPS.queryWords, CAPS.queryWords + 1, rng.range(34, 80), rng.range(100, 400)]);
      const words = Array.from({ length: n }, () => someWord(rng, c));
      // A word only past the cap, so a cap that is or is not applied shows in the result.
      if (rng.chance(0.5) && c.words.length > 0) words[n - 1] = rng.pick(c.words);
      return rng.chance(0.7) ? words.join(" ") : joinWords(rng, words);
    }
    case "caps-chars": {
      const n = rng.pick([CAPS.queryChars - 1, CAPS.queryChars, CAPS.queryChars + 1, rng.range(16400, 40000)]);
      return exactlyChars(rng, c, n);
    }
    case "caps-select": {
      const n = rng.pick([CAPS.selectNames - 1, CAPS.selectNames, CAPS.selectNames + 1, rng.range(66, 200)]);
      return selectPrefix(rng) + selectList(rng, c, n);
    }
    case "empty":
      return rng.pick(EMPTY_QUERIES);
    case "unicode": {
      const words = Array.from({ length: rng.range(1, 4) }, () => (rng.chance(0.6) ? rng.pick(UNICODE_WORDS) : someWord(rng, c)));
      if (rng.chance(0.2)) words.push("\u{1F600}".repeat(rng.range(1, 3)));
      return joinWords(rng, words);
    }
    case "regex": {
      const words = Array.from({ length: rng.range(1, 4) }, () => {
        const r = rng.next();
        if (r < 0.5) return rng.pick(REGEX_BITS);
        if (r < 0.8) return someWord(rng, c) + rng.pick(REGEX_BITS);
        return someWord(rng, c);
      });
      return joinWords(rng, words);
    }
    case "mixed-case":
      return joinWords(
        rng,
        Array.from({ length: rng.range(1, 4) }, () => changeCase(rng, someWord(rng, c))),
      );
    case "name-parts":
      return namePartsQuery(rng, c);
    case "hint":
      return c.hintWords.length > 0
        ? joinWords(
            rng,
            Array.from({ length: rng.range(1, 3) }, () => rng.pick(c.hintWords)),
          )
        : rng.pick(["start here", "playbook", "instructions", "billing"]);
  }
}

function pickKind(rng: Rng): QueryKind {
  let total = 0;
  for (const k of QUERY_KINDS) total += KIND_WEIGHTS[k];
  let r = rng.next() * total;
  for (const k of QUERY_KINDS) {
    r -= KIND_WEIGHTS[k];
    if (r < 0) return k;
  }
  return "word";
}

// ---------------------------------------------------------------------------------------------------------

/** Cases one at a time; the sequence depends only on the seed. */
export function* generateCorpus(seed: number): Generator<CorpusCase> {
  const rng = createRng(seed);
  for (;;) {
    const c = catalog(rng);
    const kind = pickKind(rng);
    const q = query(rng, kind, c);
    const out: CorpusCase = { query: q, deferred: c.deferred, loaded: c.loaded, kind };
    if (rng.chance(0.3)) out.maxResults = rng.pick([0, 1, 2, 3, 5, 10, 50]);
    yield out;
  }
}

/** `count` cases from `seed` (defaults: seed 1, 2 000 cases). */
export function defaultCorpus(seed = 1, count = 2000): CorpusCase[] {
  const out: CorpusCase[] = [];
  const gen = generateCorpus(seed);
  while (out.length < count) out.push(gen.next().value as CorpusCase);
  return out;
}

/**
 * The corpus for a release that reads tool fields the contract does not name (provenance.toolFields): the same
 * cases, with values for those fields on their tools (field-values.ts), drawn from a generator of their own
 * seeded by `seed` and the field names, so the same fields always give the same cases. An entry `field.property`
 * names a property the release reads inside a field: such a field's values are often objects holding it; inside
 * a contract field (`mcpInfo.nameKey`), the tools' own objects of that field get the property instead. No
 * fields: `cases` itself, unchanged.
 */
export function withToolFields(cases: readonly CorpusCase[], entries: readonly string[], seed = 1): CorpusCase[] {
  if (entries.length === 0) return cases as CorpusCase[];
  const inner = new Map<string, string[]>();
  for (const e of entries) {
    const dot = e.indexOf(".");
    const field = dot < 0 ? e : e.slice(0, dot);
    if (!inner.has(field)) inner.set(field, []);
    if (dot >= 0) inner.get(field)!.push(e.slice(dot + 1));
  }
  const fields = [...inner.keys()].filter((f) => !Object.hasOwn(CONTRACT_INNER_FIELDS, f));
  const within = [...inner.entries()].filter(([f]) => Object.hasOwn(CONTRACT_INNER_FIELDS, f));
  let h = seed >>> 0;
  for (const f of entries) for (let i = 0; i < f.length; i++) h = Math.imul(h ^ f.charCodeAt(i), 0x01000193) >>> 0;
  const rng = createRng(h);
  return cases.map((c) => {
    const words = queryWords(c.query);
    let deferred = c.deferred;
    let loaded = c.loaded;
    for (const field of fields) {
      const mode = fieldMode(rng);
      deferred = setField(rng, deferred, field, mode, words, inner.get(field));
      loaded = setField(rng, loaded, field, mode, words, inner.get(field));
    }
    for (const [field, properties] of within)
      for (const property of properties) {
        const mode = fieldMode(rng);
        deferred = setInnerField(rng, deferred, field, property, mode, words);
        loaded = setInnerField(rng, loaded, field, property, mode, words);
      }
    return { ...c, deferred, loaded };
  });
}
