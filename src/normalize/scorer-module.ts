/**
 * The keyword scorer of a release as code: its closure assembled twice — once with the minified
 * names, as a faithful copy of the original to run in the sandbox, once with readable names for
 * the emitted module — behind the same thin adapter from the contract's `Tool` to the objects the
 * release expects, so that the two can be compared call for call.
 *
 * This covers the contract's `searchTools` and `scoreTools` for the scorer generations whose
 * function takes (query, deferredTools, allTools, maxResults). `toolSearch` needs the tool's
 * `call()` with its environment cut at ports, which is not done yet.
 */
import { generate } from "astring";
import type { Container } from "../container/types.js";
import type { LocatedRoutine } from "../locate/locate.js";
import type { Port } from "../locate/signature.js";
import type { Node } from "../locate/pattern.js";
import { assemble } from "./assemble.js";
import { collectClosure, definitionKey, type Closure, type Place } from "./closure.js";
import { BUILTINS } from "./globals.js";
import { renameLocals } from "./rename-locals.js";

export class LiftError extends Error {
  constructor(
    message: string,
    readonly at?: Place,
  ) {
    super(at ? `${message} (${at.module}:${at.line}:${at.column})` : message);
    this.name = "LiftError";
  }
}

export interface ScorerCode {
  /** A classic script setting `globalThis.__searchlift = { searchTools, scoreTools }` over the original code. */
  original: string;
  /** The same, with readable names, as the body of an ES module (no exports of provenance yet). */
  readable: string;
  closure: Closure;
  /** Definition key → readable name. */
  names: Map<string, string>;
}

/** The release's default for max_results: the call signature accepts only a literal 5 there. */
export const DEFAULT_MAX_RESULTS = 5;

const FACTORY = "createReleaseSearch";
const ADAPTER_NAMES = ["releaseTool", "searchTools", "scoreTools", "toolSearch", "defaults", "provenance", FACTORY];

export function scorerCode(container: Container, scorer: LocatedRoutine, ports: Port[] = []): ScorerCode {
  const m = scorer.match;
  if (!m) throw new LiftError(`the scorer was not found (${scorer.result.status})`);
  const roles = scorer.result.roles ?? {};
  const rootName = roles.searchTools;
  if (!rootName) throw new LiftError("the scorer's own name is not bound");
  const fn = m.node;
  const paramIndex = (role: string) => fn.params.findIndex((p: Node) => p.type === "Identifier" && p.name === roles[role]);
  const [q, d, max] = [paramIndex("query"), paramIndex("deferredTools"), paramIndex("maxResults")];
  if (fn.params.length !== 4 || q !== 0 || d !== 1 || max !== 3) {
    throw new LiftError(`scorer variant ${scorer.result.variant} takes (${fn.params.length} parameters); only (query, deferredTools, allTools, maxResults) is lifted yet`);
  }

  const closure = collectClosure(container, [{ module: m.module, node: fn, name: rootName }], ports);
  const env = closure.environment[0];
  if (env) throw new LiftError(`the scorer reaches the host through ${env.name} in ${env.in}`, env.at);
  const unresolved = closure.unresolved[0];
  if (unresolved) throw new LiftError(`cannot classify ${unresolved.name} in ${unresolved.in}`, unresolved.at);

  const rootKey = definitionKey(closure.definitions[0]!);
  const reserved = [...ADAPTER_NAMES, ...BUILTINS];

  // The faithful copy: minified names, made unique across chunks.
  const orig = assemble(closure, (def) => def.name, reserved);
  const origRoot = orig.names.get(rootKey)!;
  const origScores = scoresVariant(orig.statements[0]!, `${origRoot}$scores`);

  // The readable copy: role names for the routines, numbered helpers for the rest, readable locals.
  let helper = 0;
  const read = assemble(closure, (def) => (definitionKey(def) === rootKey ? "searchToolsByKeywords" : def.kind === "function" ? `helper${++helper}` : `value${++helper}`), reserved);
  const readRoot = read.names.get(rootKey)!;
  const roleByOffset = new Map<number, string>();
  for (const [meta, role] of Object.entries(scorerRoles)) {
    const b = m.bindings.get(meta);
    if (b && !Array.isArray(b) && b.type === "Identifier") roleByOffset.set(b.start, role);
  }
  renameLocals(read.statements, { roles: roleByOffset, taken: new Set([...read.names.values(), ...reserved]) });
  const readScores = scoresVariant(read.statements[0]!, "scoreToolsByKeywords");

  return {
    original: factory(orig.statements, origScores, origRoot) + ADAPTER + "globalThis.__searchlift = { searchTools, scoreTools };\n",
    readable: factory(read.statements, readScores, readRoot) + ADAPTER,
    closure,
    names: read.names,
  };
}

/** Metavariables of the scorer signature whose bindings are locals of the scorer, and their names. */
const scorerRoles: Record<string, string> = {
  QUERY: "query",
  TOOLS: "deferredTools",
  MAX: "maxResults",
  TERMS: "terms",
  TERM: "term",
  SCORE: "score",
  TOOL: "tool",
  PARSED: "parsedName",
  KEY: "nameKey",
  DESC: "description",
  CACHE: "sessionCache",
};

/**
 * Every definition inside one factory, so each call starts from fresh state (memo caches and
 * module-level variables as the release starts them), as the contract's "same tools" demands.
 */
function factory(statements: Node[], scores: Node, root: string): string {
  const body = [...statements, scores].map((s) => generate(s as never)).join("\n\n");
  const indented = body.replace(/^(?=.)/gm, "  ");
  return `function ${FACTORY}() {\n${indented}\n\n  return { search: ${root}, scores: ${scores.id.name} };\n}\n\n`;
}

/**
 * The scorer without what happens before and after scoring: the fast paths that return early
 * (exact name, mcp__ prefix) are dropped, and the final filter/sort/slice/map chain is cut off so
 * the function returns every scored `{ name, score }` in input order.
 */
export function scoresVariant(fn: Node, name: string): Node {
  const copy = structuredClone(fn) as Node;
  copy.id = { ...copy.id, name };
  const body: Node[] = copy.body.body;
  const last = body[body.length - 1];
  const chain = last?.type === "ReturnStatement" ? tailReceiver(last.argument) : null;
  if (!chain) throw new LiftError("the scorer does not end with the filter/sort/slice/map chain");
  last.argument = chain;
  copy.body.body = body.filter((s, i) => i === body.length - 1 || !(s.type === "IfStatement" && returnsEarly(s)));
  return copy;
}

/** X in `return X.filter(…).sort(…).slice(…).map(…)`. */
function tailReceiver(e: Node): Node | null {
  const steps = ["map", "slice", "sort", "filter"];
  let cur = e;
  for (const step of steps) {
    if (cur?.type !== "CallExpression" || cur.callee.type !== "MemberExpression" || cur.callee.property.name !== step) return null;
    cur = cur.callee.object;
  }
  return cur;
}

/** An if statement holding a `return` of the function itself (not of a nested function). */
function returnsEarly(s: Node): boolean {
  let found = false;
  const visit = (n: Node) => {
    if (!n || typeof n.type !== "string" || found) return;
    if (n.type === "ReturnStatement") found = true;
    if (n.type.includes("Function")) return;
    for (const k of Object.keys(n)) {
      const v = n[k];
      if (Array.isArray(v)) v.forEach((c) => c && typeof c === "object" && visit(c));
      else if (v && typeof v === "object" && k !== "range") visit(v);
    }
  };
  visit(s);
  return found;
}

/** The contract side, the same text on both sides of the comparison. */
const ADAPTER = `/** A contract Tool as the release sees a tool: its description is what prompt() returns. */
function releaseTool(tool) {
  const seen = { name: tool.name, isMcp: tool.isMcp ?? tool.name.startsWith("mcp__"), prompt: async () => tool.description ?? "" };
  if (tool.searchHint !== undefined) seen.searchHint = tool.searchHint;
  // The client always knows both names; a contract Tool may give only the server's.
  if (tool.mcpInfo !== undefined) seen.mcpInfo = tool.mcpInfo.toolName === undefined ? { ...tool.mcpInfo, toolName: tool.name.replace(/^mcp__[^_]*(?:_(?!_)[^_]*)*__/, "") } : tool.mcpInfo;
  if (tool.aliases !== undefined) seen.aliases = tool.aliases;
  return seen;
}

const defaults = { maxResults: ${DEFAULT_MAX_RESULTS} };

async function searchTools(query, deferred, options = {}) {
  const release = ${FACTORY}();
  const searched = deferred.map(releaseTool);
  const allTools = [...searched, ...(options.loaded ?? []).map(releaseTool)];
  return release.search(query, searched, allTools, options.maxResults ?? defaults.maxResults);
}

async function scoreTools(query, deferred, options = {}) {
  const release = ${FACTORY}();
  const searched = deferred.map(releaseTool);
  const allTools = [...searched, ...(options.loaded ?? []).map(releaseTool)];
  const scored = await release.scores(query, searched, allTools, options.maxResults ?? defaults.maxResults);
  // Tools left out before scoring (a missing +required term) score 0; the rest keep their order.
  let next = 0;
  return deferred.map((tool) => (scored[next]?.name === tool.name ? scored[next++] : { name: tool.name, score: 0 }));
}
`;
