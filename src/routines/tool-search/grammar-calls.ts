/**
 * The witness search's sources that do not depend on what changed (witness-candidates.ts orders them): a grammar
 * of realistic catalogs and queries about their tools, the code's strings and numbers, the behaviour catalog and
 * the verification corpus; and the tools and calls the sources of the changed code build on.
 */
import type { CodeTokens } from "../../diff/code-tokens.js";
import type { ContractCall } from "../../diff/witness-run.js";
import type { ContractFn } from "../../verify/verify.js";
import { DEFAULT_QUERIES, defaultCatalog } from "./catalogs.js";
import { generateCorpus, type Tool } from "./corpus.js";

const FNS: readonly ContractFn[] = ["toolSearch", "searchTools", "scoreTools"];

export function mcp(server: string, tool: string, description: string, searchHint?: string): Tool {
  return {
    name: `mcp__${server}__${tool}`,
    description,
    isMcp: true,
    mcpInfo: { serverName: server, toolName: tool },
    ...(searchHint ? { searchHint } : {}),
  };
}

export function builtIn(name: string, description: string, extra: Partial<Tool> = {}): Tool {
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

export const words = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
export const nameParts = (name: string) =>
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

export function callsFor(query: string, deferred: Tool[], loaded: Tool[], maxResults?: number): ContractCall[] {
  return FNS.map((fn) => ({ fn, query, deferred, loaded, ...(maxResults !== undefined ? { maxResults } : {}) }));
}

export function* grammarCalls(): Generator<ContractCall> {
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
export function* numberCalls(numbers: readonly number[]): Generator<ContractCall> {
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

export function* stringCalls(tokens: CodeTokens): Generator<ContractCall> {
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

export function* catalogCalls(): Generator<ContractCall> {
  const catalog = defaultCatalog() as Tool[];
  const mcpTools = catalog.filter(isMcp);
  const builtIns = catalog.filter((t) => !isMcp(t));
  // A 280-tool call costs a hundred small ones: the scores of every tool say what searchTools would rank, and
  // toolSearch (with the built-ins loaded) what the call returns; searchTools on top would only repeat them.
  for (const q of DEFAULT_QUERIES) yield { fn: "scoreTools", query: q, deferred: catalog, loaded: [] };
  for (const q of DEFAULT_QUERIES) yield { fn: "toolSearch", query: q, deferred: mcpTools, loaded: builtIns };
}

export function* corpusCalls(seed: number): Generator<ContractCall> {
  for (const c of generateCorpus(seed)) yield* callsFor(c.query, c.deferred, c.loaded, c.maxResults);
}
