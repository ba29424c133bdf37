/**
 * A release's tool search as code: the closure of its scorer (and, where it can be lifted, of the
 * tool's call()) assembled twice — once with the minified names, as a faithful copy of the original
 * to run in the sandbox, once with readable names for the emitted module — behind the same thin
 * adapter from the contract's `Tool` to the objects the release expects, so that the two can be
 * compared call for call.
 *
 * Covered: scorer generations whose function takes (query, deferredTools, allTools, maxResults),
 * and call() where its environment can be cut at the ports of call-ports.ts.
 */
import { generate } from "astring";
import type { Container } from "../../extract/types.js";
import type { LocatedRoutine } from "../../locate/locate.js";
import type { Signature } from "../../locate/signature.js";
import type { CallExpression, Expression, Literal, Property, ReturnStatement, Statement } from "acorn";
import { fieldsOf, isFunction, isNodeList, walk, type Node, type NodeOf, memberName } from "../../ast/pattern.js";
import { assemble } from "../../lift/assemble.js";
import { cutHostEffects } from "../../lift/host-cut.js";
import { prepareCall } from "./call-ports.js";
import { DEFERRED_BY_CALLER } from "./defer-policy.js";
import { HostReach } from "../../lift/host-reach.js";
import { collectClosure, definitionKey, Resolver, type Closure, type Place, type Root } from "../../lift/closure.js";
import { BUILTINS, REFUSED_BUILTINS } from "../../lift/globals.js";
import { LiftError } from "../../lift/lift-error.js";
import { EMPTY_STATE_FUNCTION } from "../../lift/trusted-functions.js";
import { KEY_PORT, READ_PORT, portComputedKeys } from "../../lift/key-port.js";
import { wrapConversionCallbacks } from "../../lift/conversion-callbacks.js";
import { nameProgram } from "../../lift/names/namer.js";
import { curatedNames } from "../../lift/names/curated.js";
import { codeTag } from "../../lift/stable-name.js";
import { foldDeadCode, foldIdioms } from "../../lift/fold/index.js";
import { emptyStateKeys } from "../../lift/fold/empty-state-calls.js";
import { selectToolFields, type ToolFields } from "./tool-field-names.js";
import { toolFieldUses } from "./tool-fields.js";
import { ARGUMENTS_ROOT, SLOTS, scorerInvocation } from "./scorer-invocation.js";

/** The scorer: a function with a block body (a declaration, or an expression bound to its name). */
type ScorerFunction = NodeOf<"FunctionDeclaration" | "FunctionExpression">;

export { LiftError };

export interface ToolSearchCode {
  /** A classic script setting `globalThis.__searchlift = { searchTools, scoreTools[, toolSearch] }` over the original code. */
  original: string;
  /** The same, with readable names, as the body of an ES module (no exports of provenance yet); computed keys pass through the key port. */
  readable: string;
  /** How many computed keys of `readable` pass through the key port. */
  portedKeys: number;
  closure: Closure;
  /** Definition key → readable name. */
  names: Map<string, string>;
  /** Whether toolSearch (call()) is included. */
  toolSearch: boolean;
  /** Host calls cut out of call(). */
  dropped: Array<{ name: string; at: Place }>;
  /** How often each dead-code fold changed the readable copy (see src/lift/fold). */
  folded: Record<string, number>;
  /** Tool fields the routine reads that the contract does not name: passed through by the adapter, or refused. */
  toolFields: ToolFields;
}

/** The release's default for max_results: the call signature accepts only a literal 5 there. */
export const DEFAULT_MAX_RESULTS = 5;

const FACTORY = "createReleaseSearch";
/** The names assembly gives helpers and constants (kind and code hash), which the namer replaces. */
const TAGGED = /^(helper|Helper|value)_[0-9a-f]{4}\d*$/;
const CALL_ROOT = "call";
const ADAPTER_NAMES = [
  KEY_PORT,
  READ_PORT,
  "releaseTool",
  "emptyState",
  "searchTools",
  "scoreTools",
  "toolSearch",
  "defaults",
  "provenance",
  FACTORY,
];

export interface Routines {
  scorer: LocatedRoutine;
  scorerSignature: Signature;
  call?: LocatedRoutine;
  callSignature?: Signature;
}

export function toolSearchCode(container: Container, r: Routines): ToolSearchCode {
  const m = r.scorer.match;
  if (!m) throw new LiftError(`the scorer was not found (${r.scorer.result.status})`);
  const roles = r.scorer.result.roles ?? {};
  const rootName = roles.searchTools;
  if (!rootName) throw new LiftError("the scorer's own name is not bound");
  const fn = m.node as ScorerFunction;
  const paramIndex = (role: string) => fn.params.findIndex((p: Node) => p.type === "Identifier" && p.name === roles[role]);
  const [q, d, max] = [paramIndex("query"), paramIndex("deferredTools"), paramIndex("maxResults")];
  // How call() feeds the scorer: (query, deferredTools, allTools, maxResults), from 2.1.2xx a fifth
  // — the description cache that call() takes from its tool state by class, for which the adapter
  // makes a fresh one of that class — and later other arguments computed from the tools.
  const ports = [...r.scorerSignature.ports, ...(r.callSignature?.ports ?? [])];
  const resolver = new Resolver(container);
  const host = new HostReach(ports, resolver);
  const call = r.call?.match ? prepareCall(container, r.call, ports, resolver, host) : null;
  const invocation = call ? scorerInvocation(r.call!, call.node, rootName, fn.params.length) : null;
  const standard = q === 0 && d === 1 && max === 3 && fn.params.length === 4;
  if (!standard && !invocation) {
    throw new LiftError(
      `scorer variant ${r.scorer.result.variant} takes (${fn.params.length} parameters) and its call() was not lifted; only (query, deferredTools, allTools, maxResults) is lifted without it`,
    );
  }
  const cacheClass = invocation?.cacheClass ?? null;

  const roots: Root[] = [{ module: m.module, node: fn, name: rootName }];
  if (call) roots.push({ module: r.call!.match!.module, node: call.node, name: CALL_ROOT });
  if (invocation?.argumentsNode) roots.push({ module: r.call!.match!.module, node: invocation.argumentsNode, name: ARGUMENTS_ROOT });

  const closure = collectClosure(container, roots, ports, {
    provided: [DEFERRED_BY_CALLER],
    resolver,
    transform: (def) => void cutHostEffects(def, ports, resolver, host),
  });
  const env = closure.environment[0];
  if (env) throw new LiftError(`the tool search reaches the host through ${env.name} in ${pathTo(closure, env.in)}`, env.at);
  const unresolved = closure.unresolved[0];
  if (unresolved) throw new LiftError(`cannot classify ${unresolved.name} in ${unresolved.in}`, unresolved.at);

  const rootKey = definitionKey(closure.definitions[0]!);
  const callKey = call ? definitionKey(closure.definitions[1]!) : null;
  const argumentsKey = invocation?.argumentsNode ? definitionKey(closure.definitions[2]!) : null;
  const reserved = [...ADAPTER_NAMES, ...BUILTINS, ...REFUSED_BUILTINS, DEFERRED_BY_CALLER];

  // The readable copy: role names for the routines, numbered helpers for the rest, readable locals.
  const read = assemble(
    closure,
    (def) => {
      const key = definitionKey(def);
      if (key === rootKey) return "searchToolsByKeywords";
      if (key === callKey) return "callToolSearch";
      if (key === argumentsKey) return ARGUMENTS_ROOT;
      return `${def.kind === "function" ? "helper" : def.kind === "class" ? "Helper" : "value"}_${codeTag(def.node)}`;
    },
    reserved,
  );
  const callDef = callKey ? closure.definitions[1]! : null;
  const cacheKey = cacheClass && callDef ? (callDef.references.get(cacheClass) ?? null) : null;
  if (cacheClass && !cacheKey) throw new LiftError(`the scorer's cache class ${cacheClass} is not defined in the closure`);
  // What the cuts left dead goes from the readable copy; verification compares it with the faithful one.
  const used = [rootKey, callKey, argumentsKey, cacheKey].flatMap((k) => (k ? [read.names.get(k)!] : []));
  const folded = foldDeadCode(read.statements, used, [DEFERRED_BY_CALLER]);
  nameReadable(read, r, fn, invocation, reserved);
  // Then the minifier's idioms, as a person would write them (the namer reads the code as the folds above leave it).
  const named = [rootKey, callKey, argumentsKey, cacheKey].flatMap((k) => (k ? [read.names.get(k)!] : []));
  // Where the adapter hands call() the empty state: a call of such a part of its context does nothing.
  const emptyState = call && callKey ? { call: read.names.get(callKey)!, keys: emptyStateKeys(call.context), context: call.context } : null;
  for (const [fold, n] of Object.entries(foldIdioms(read.statements, named, [DEFERRED_BY_CALLER], emptyState)))
    folded[fold] = (folded[fold] ?? 0) + n;
  const readScores = scoresVariant(read.statements[0]! as ScorerFunction, "scoreToolsByKeywords");

  const names = (a: typeof read) => ({
    search: a.names.get(rootKey)!,
    call: callKey ? a.names.get(callKey)! : null,
    cache: cacheKey ? a.names.get(cacheKey)! : null,
    arguments: argumentsKey ? a.names.get(argumentsKey)! : null,
  });
  // Fields the routine reads beyond the contract's: the adapter passes them through, on both copies alike.
  const uses = toolFieldUses(read.statements, toolInputs(read, fn, names(read), invocation));
  const toolFields = selectToolFields(uses.names, uses.inner);
  const adapter = adapterText(toolFields.passed) + (call ? toolSearchAdapter(call.context) : "");
  const exported = call ? "searchTools, scoreTools, toolSearch" : "searchTools, scoreTools";
  // Keys the safety check cannot prove harmless are checked where they are used, and conversions are not handed
  // out as callbacks; the original is left as it is.
  const readable = portComputedKeys(wrapConversionCallbacks(factory(read.statements, readScores, names(read)) + adapter));
  // The faithful copy: minified names, made unique across chunks. Only a verification runs it, so it is
  // assembled when first asked for (assembly copies the closure's nodes; nothing above changed them).
  let original: string | undefined;
  const faithful = (): string => {
    const orig = assemble(
      closure,
      (def) => (definitionKey(def) === callKey ? "releaseCall" : definitionKey(def) === argumentsKey ? ARGUMENTS_ROOT : def.name),
      reserved,
    );
    const origScores = scoresVariant(orig.statements[0]! as ScorerFunction, `${orig.names.get(rootKey)!}$scores`);
    return factory(orig.statements, origScores, names(orig)) + adapter + `globalThis.__searchlift = { ${exported} };\n`;
  };
  return {
    get original() {
      return (original ??= faithful());
    },
    readable: readable.text,
    portedKeys: readable.ported,
    closure,
    names: read.names,
    toolSearch: !!call,
    dropped: call?.dropped ?? [],
    folded,
    toolFields,
  };
}

/**
 * Where the tool lists enter the readable copy: the scorer's deferred and all tools (by the positions its
 * roles or call()'s arguments give them), call()'s context (its `tools`), and the parameters of the function
 * that computes the scorer's arguments from them.
 */
function toolInputs(
  read: ReturnType<typeof assemble>,
  fn: ScorerFunction,
  roots: { search: string; call: string | null; arguments: string | null },
  invocation: ReturnType<typeof scorerInvocation> | null,
): { listParams: Array<{ fn: Node; index: number }>; contextFns: Node[] } {
  const named = (name: string | null) =>
    name === null
      ? null
      : (read.statements.find(
          (s) =>
            (s.type === "FunctionDeclaration" && s.id?.name === name) ||
            (s.type === "VariableDeclaration" && s.declarations[0]?.id.type === "Identifier" && s.declarations[0].id.name === name),
        ) ?? null);
  const scorer = named(roots.search);
  const listParams: Array<{ fn: Node; index: number }> = [];
  if (scorer) {
    const indices = new Set<number>();
    if (invocation) invocation.slots.forEach((slot, i) => (slot === "deferredTools" || slot === "allTools") && indices.add(i));
    else if (fn.params.length === 4) [1, 2].forEach((i) => indices.add(i));
    for (const index of indices) listParams.push({ fn: scorer, index });
  }
  const args = named(roots.arguments);
  if (args) listParams.push({ fn: args, index: SLOTS.indexOf("deferredTools") }, { fn: args, index: SLOTS.indexOf("allTools") });
  const call = named(roots.call);
  return { listParams, contextFns: call ? [call] : [] };
}

/** Names for the readable copy: the signatures' roles, what call() passes the scorer's other parameters, then the namer. */
function nameReadable(
  read: ReturnType<typeof assemble>,
  r: Routines,
  fn: ScorerFunction,
  invocation: ReturnType<typeof scorerInvocation> | null,
  reserved: string[],
): void {
  const roleByOffset = new Map<number, string>();
  const addRoles = (loc: LocatedRoutine | undefined, sig: Signature | undefined) => {
    for (const [meta, role] of Object.entries(sig?.roles ?? {})) {
      const b = loc?.match?.bindings.get(meta);
      if (b && !Array.isArray(b) && b.type === "Identifier" && !roleByOffset.has(b.start)) roleByOffset.set(b.start, role);
    }
  };
  addRoles(r.scorer, r.scorerSignature);
  addRoles(r.call, r.callSignature);
  // Scorer parameters without a role take the name of what call() passes them.
  invocation?.slots.forEach((slot, i) => {
    const p = fn.params[i];
    if (slot && slot !== "cache" && p?.type === "Identifier" && !roleByOffset.has(p.start)) roleByOffset.set(p.start, slot);
  });
  const renamed = nameProgram({
    statements: read.statements,
    roles: roleByOffset,
    taken: reserved,
    renamable: (n) => TAGGED.test(n),
    curated: curatedNames(),
  });
  for (const [key, name] of read.names) read.names.set(key, renamed.get(name) ?? name);
}

/** The scorer only (searchTools and scoreTools). */
export function scorerCode(container: Container, scorer: LocatedRoutine, scorerSignature: Signature): ToolSearchCode {
  return toolSearchCode(container, { scorer, scorerSignature });
}

/**
 * Every definition inside one factory, so each call starts from fresh state (memo caches and
 * module-level variables as the release starts them), as the contract's "same tools" demands.
 */
function factory(
  statements: Node[],
  scores: ScorerFunction,
  roots: { search: string; call: string | null; cache: string | null; arguments: string | null },
): string {
  const body = [...statements, scores].map((s) => generate(s as never)).join("\n\n");
  const indented = body.replace(/^(?=.)/gm, "  ");
  const call = (roots.call ? `, call: ${roots.call}` : "") + (roots.cache ? `, newCache: () => new ${roots.cache}()` : "");
  const params = SLOTS.join(", ");
  const through = (fn: string) => (roots.arguments ? `(${params}) => ${fn}(...${roots.arguments}(${params}))` : fn);
  return `function ${FACTORY}(${DEFERRED_BY_CALLER}) {\n${indented}\n\n  return { search: ${through(roots.search)}, scores: ${through(scores.id!.name)}${call} };\n}\n\n`;
}

/**
 * The scorer without what happens before and after scoring: the fast paths that return early
 * (exact name, mcp__ prefix) are dropped, and the final filter/sort/slice/map chain is cut off so
 * the function returns every scored `{ name, score }` in input order.
 */
export function scoresVariant(fn: ScorerFunction, name: string): ScorerFunction {
  const copy = structuredClone(fn);
  copy.id = { ...copy.id!, name };
  const body: Statement[] = copy.body.body;
  const last = body[body.length - 1];
  const chain = last?.type === "ReturnStatement" ? tailReceiver(last.argument) : null;
  if (!chain) throw new LiftError("the scorer does not end with the filter/sort/slice/map chain");
  (last as ReturnStatement).argument = chain as Expression;
  copy.body.body = body.filter((s, i) => i === body.length - 1 || !(s.type === "IfStatement" && returnsEarly(s)));
  if (!carryScoredTool(copy)) throw new LiftError("the scorer's result objects ({ name: tool.name, score }) were not found");
  return copy;
}

/**
 * Add `tool: t` to each `{ name: t.name, score }` the scorer builds, so that scoreTools matches a score to
 * its tool by identity (two deferred tools may share a name, and a `+required` term may keep either).
 */
function carryScoredTool(scorer: Node): boolean {
  let found = false;
  walk(scorer, (n) => {
    if (n.type !== "ObjectExpression") return;
    // A key that is not computed is an identifier or a literal.
    const key = (p: Node) =>
      p.type === "Property" && !p.computed ? (p.key.type === "Identifier" ? p.key.name : (p.key as Literal).value) : undefined;
    const name = n.properties.find((p: Node): p is Property => key(p) === "name");
    const hasScore = n.properties.some((p: Node) => key(p) === "score");
    const owner = name?.value.type === "MemberExpression" && memberName(name.value) === "name" ? name.value.object : null;
    if (!hasScore || owner?.type !== "Identifier") return;
    n.properties.push({
      type: "Property",
      kind: "init",
      method: false,
      // `{ name: tool.name, score, tool }` where the readable copy calls it tool.
      shorthand: owner.name === "tool",
      computed: false,
      key: { type: "Identifier", name: "tool" },
      value: { type: "Identifier", name: owner.name },
    } as Property);
    found = true;
  });
  return found;
}

/**
 * X in `return X.filter(…).sort(…).slice(…).map(…)`: the scored list under the steps that choose, order and
 * name its entries without changing a score. The last step maps entries to names; before it, any of the
 * others, in any order (`.sort(…).reverse()`, `.toSorted(…)`, a second filter), and at least a sort.
 */
function tailReceiver(e: Node | null | undefined): Node | null {
  const step = (n: Node | null | undefined) =>
    n?.type === "CallExpression" && n.callee.type === "MemberExpression" ? memberName(n.callee) : undefined;
  if (step(e) !== "map") return null;
  let cur = (e as CallExpression).callee as Node;
  cur = (cur as NodeOf<"MemberExpression">).object;
  let sorted = false;
  while (ORDERING_STEPS.has(step(cur) ?? "")) {
    if (/sort/i.test(step(cur)!)) sorted = true;
    cur = ((cur as CallExpression).callee as NodeOf<"MemberExpression">).object;
  }
  return sorted ? cur : null;
}

const ORDERING_STEPS = new Set(["filter", "sort", "toSorted", "reverse", "toReversed", "slice"]);

/** An if statement holding a `return` of the function itself (not of a nested function). */
function returnsEarly(s: Node): boolean {
  let found = false;
  const visit = (n: Node) => {
    if (!n || typeof n.type !== "string" || found) return;
    if (n.type === "ReturnStatement") found = true;
    if (isFunction(n)) return;
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (isNodeList(v)) v.forEach((c) => c && typeof c === "object" && visit(c));
      else if (v && typeof v === "object" && k !== "range") visit(v as Node);
    }
  };
  visit(s);
  return found;
}

/** The adapter with a line for each field the release reads beyond the contract's (names checked by tool-fields.ts). */
function adapterText(fields: readonly string[]): string {
  if (fields.length === 0) return ADAPTER;
  const lines = fields.map((f) => `  if (tool.${f} !== undefined) seen.${f} = tool.${f};\n`).join("");
  const at = ADAPTER.indexOf(PASSED_THROUGH) + PASSED_THROUGH.length;
  const comment = "  // Read by this release, not named by the contract: passed as given.\n";
  return ADAPTER.slice(0, at) + comment + lines + ADAPTER.slice(at);
}

const PASSED_THROUGH = "  if (tool.aliases !== undefined) seen.aliases = tool.aliases;\n";

/** The contract side, the same text on both sides of the comparison. */
const ADAPTER = `/** A contract Tool as the release sees a tool: its description is what prompt() returns. */
function releaseTool(tool) {
  const seen = { name: tool.name, isMcp: tool.isMcp ?? tool.name.startsWith("mcp__"), prompt: async () => tool.description ?? "" };
  if (tool.searchHint !== undefined) seen.searchHint = tool.searchHint;
  // Passed as given: a release's answer to an mcpInfo without toolName is part of its behaviour.
  if (tool.mcpInfo !== undefined) seen.mcpInfo = tool.mcpInfo;
  if (tool.aliases !== undefined) seen.aliases = tool.aliases;
  return seen;
}

const defaults = { maxResults: ${DEFAULT_MAX_RESULTS} };

async function searchTools(query, deferred, options = {}) {
  const release = ${FACTORY}();
  const searched = deferred.map(releaseTool);
  const allTools = [...searched, ...(options.loaded ?? []).map(releaseTool)];
  return release.search(query, searched, allTools, options.maxResults ?? defaults.maxResults, ...(release.newCache ? [release.newCache()] : []));
}

async function scoreTools(query, deferred, options = {}) {
  const release = ${FACTORY}();
  const searched = deferred.map(releaseTool);
  const allTools = [...searched, ...(options.loaded ?? []).map(releaseTool)];
  const scored = await release.scores(query, searched, allTools, options.maxResults ?? defaults.maxResults, ...(release.newCache ? [release.newCache()] : []));
  // Tools left out before scoring (a missing +required term) score 0. Scores go back by position, never by name.
  const scores = new Map(scored.map((result) => [result.tool, result.score]));
  return searched.map((tool) => ({ name: tool.name, score: scores.get(tool) ?? 0 }));
}
`;

/** toolSearch: call() with the contract's deferred list as its policy and a neutral client around it. */
function toolSearchAdapter(context: string): string {
  return `
/** The client's state with nothing in it: no MCP servers, nothing pending, empty lists everywhere. */
${EMPTY_STATE_FUNCTION}

async function toolSearch(query, deferred, options = {}) {
  const searched = deferred.map(releaseTool);
  const allTools = [...searched, ...(options.loaded ?? []).map(releaseTool)];
  const release = ${FACTORY}((tool) => searched.includes(tool));
  const input = { query };
  if (options.maxResults !== undefined) input.max_results = options.maxResults;
  const result = await release.call(input, ${context});
  return result.data.matches;
}
`;
}

/** How the closure reached a definition: `call → x5e → uu → f` (names only, roots first). */
function pathTo(closure: Closure, key: string): string {
  const parent = new Map<string, string>();
  for (const d of closure.definitions) {
    for (const k of d.references.values()) if (k && !parent.has(k) && k !== definitionKey(d)) parent.set(k, definitionKey(d));
  }
  const chain = [key];
  for (let k = parent.get(key); k && chain.length < 40 && !chain.includes(k); k = parent.get(k)) chain.unshift(k);
  return chain.map((k) => k.slice(k.lastIndexOf("#") + 1)).join(" → ") + ` (${key.slice(0, key.lastIndexOf("#"))})`;
}
