/**
 * The tool's call() made liftable: the client's environment is cut at ports.
 *
 * - Effects: a call whose value is thrown away (a statement, or a discarded element of a comma
 *   sequence) to a function that reaches the host — logging, telemetry, cache invalidation — is
 *   dropped; so is a local function that only exists to do such effects.
 * - The defer policy: `allTools.filter(policy)` becomes `allTools.filter(deferredByCaller)`, the
 *   contract's own list of deferred tools (the release's policy reads feature flags).
 * - The context argument: built from call()'s own destructuring pattern — the tools where it reads
 *   `tools`, `undefined` where it only calls optionally (`refresh?.()`), and an empty client state
 *   everywhere else (no MCP servers, nothing pending).
 */
import type { Reference } from "eslint-scope";
import type { Container, ModuleEntry } from "../../extract/types.js";
import type { LocatedRoutine } from "../../locate/locate.js";
import { lineColumn } from "../../ast/parse-module.js";
import type {
  ArrayExpression,
  AssignmentProperty,
  CallExpression,
  ConditionalExpression,
  Expression,
  FunctionDeclaration,
  FunctionExpression,
  Identifier,
  Literal,
  MemberExpression,
  ObjectExpression,
  Property,
  ReturnStatement,
  UnaryExpression,
  VariableDeclarator,
} from "acorn";
import {
  fieldsOf,
  instantiate,
  isFunction,
  isNode,
  matchNode,
  memberName,
  someNode,
  walk,
  type FunctionNode,
  type Node,
} from "../../ast/pattern.js";
import type { Port } from "../../locate/signature.js";
import { collectClosure, freeReferences, portFor, Resolver, type Place } from "../../lift/closure.js";
import { LiftError } from "../../lift/lift-error.js";
import { analyzeFunction, foldUndefinedLocals } from "../../lift/fold-undefined.js";
import { rewriteTree } from "../../ast/rewrite.js";
import { BUILTINS, ENVIRONMENT } from "../../lift/globals.js";
import { HOST_LIMIT, HostReach } from "../../lift/host-reach.js";
import { enclosingBindings } from "../../lift/enclosing-scope.js";
import { addBindingNames } from "../../lift/binding-names.js";

export const DEFERRED_BY_CALLER = "deferredByCaller";

export interface PreparedCall {
  /** The call() method (a Property), transformed. */
  node: Node;
  /** JavaScript source of the context argument, in terms of `allTools` and `emptyState()`. */
  context: string;
  /** What was cut, for the provenance. */
  dropped: Array<{ name: string; at: Place }>;
}

export function prepareCall(
  container: Container,
  call: LocatedRoutine,
  ports: Port[],
  resolver = new Resolver(container),
  host = new HostReach(ports, resolver),
): PreparedCall {
  const m = call.match;
  if (!m) throw new LiftError(`call() was not found (${call.result.status})`);
  const node = structuredClone(m.node) as Node;
  const fn = (node as Property).value as FunctionExpression;
  const at = (n: Node): Place => ({ module: m.module.path, ...lineColumn(m.text, n.start) });
  const dropped: PreparedCall["dropped"] = [];

  replaceDeferPolicy(fn, call, at);
  applyLocalPorts(fn.body, ports, dropped, at);
  // A module the client loads lazily and reads only through `?.` (`teleport?.state()`): the code
  // allows for it to be absent, and in the neutral client it is.
  for (const name of optionalModules(fn, m.module, resolver)) dropped.push({ name: `(no module ${name})`, at: at(fn) });
  // State a port set to "none" makes the code that needs it dead.
  for (const name of foldUndefinedLocals(fn)) dropped.push({ name: `(no ${name})`, at: at(fn) });

  // Effects on the host.
  const cut = hostQuestions({ container, module: m.module, callNode: m.node, fn, ports, resolver, host, at, dropped });
  cutEffects(fn.body, (e) => droppable(cut, e));
  replaceHostConditionals(cut, fn.body);
  rewriteTree(fn.body, (n) => guardedConstant(cut, n) ?? n);
  removeEffectOnlyFunctions(cut);
  pruneEmptyIfs(fn.body);
  // A local whose value nobody reads any more (the policy's inputs, once the policy is the caller's)
  // and whose initializer reaches the host goes too.
  removeUnusedHostLocals(fn, (e) => cut.hostCall(e), dropped, at);
  removeHostFunctions(cut);
  return { node, context: contextArgument(m.module, fn, cut.enclosing, resolver), dropped };
}

/**
 * The defer policy: the matched `.filter(policy)` and — where the policy is a named function — every
 * other `.filter(policy)` in call() (later releases filter again after refreshing the tools) become
 * `.filter(deferredByCaller)`; where there is no filter, the local policy function is replaced.
 */
function replaceDeferPolicy(fn: FunctionNode, call: LocatedRoutine, at: (n: Node) => Place): void {
  const bound = call.match!.bindings.get("POLICY");
  const policy = bound && !Array.isArray(bound) ? bound : namedPolicy(fn, call.result.roles?.deferredTools, call.result.roles?.allTools);
  if (!policy) return policyFunction(fn, call.result.roles?.deferredTools, call.result.roles?.allTools, at);
  let replaced = false;
  const same = (a: Node) => a.start === policy.start || (policy.type === "Identifier" && a.type === "Identifier" && a.name === policy.name);
  walk(fn, (n) => {
    if (
      n.type === "CallExpression" &&
      n.arguments.length === 1 &&
      same(n.arguments[0]) &&
      ((n.callee as MemberExpression).property as Identifier | undefined)?.name === "filter"
    ) {
      n.arguments[0] = {
        type: "Identifier",
        name: DEFERRED_BY_CALLER,
        start: n.arguments[0].start,
        end: n.arguments[0].end,
        range: [n.arguments[0].start, n.arguments[0].end],
      };
      replaced = true;
    }
  });
  if (!replaced) throw new LiftError("the defer policy's filter was not found in call()", at(policy));
}

/** Local definitions that a port recognises (call() keeps some of the client's machinery inline). */
function applyLocalPorts(body: Node, ports: Port[], dropped: PreparedCall["dropped"], at: (n: Node) => Place): void {
  const byPort = (d: Node): Node | null => {
    for (const p of ports) {
      if (!p.anchor || !p.replace) continue;
      const b = matchNode(p.anchor.root, d, new Map());
      if (!b) continue;
      dropped.push({ name: `(${p.name})`, at: at(d) });
      return { ...instantiate(p.replace, b), start: d.start, end: d.end, range: [d.start, d.end] as [number, number] };
    }
    return null;
  };
  replacePortedExpressions(body, ports, (name, c) => dropped.push({ name: `(${name})`, at: at(c) }));
  walk(body, (n) => {
    for (const key of ["body", "consequent"]) {
      const list = fieldsOf(n)[key];
      if (Array.isArray(list))
        for (let i = 0; i < list.length; i++) if (list[i]?.type === "FunctionDeclaration") list[i] = byPort(list[i]) ?? list[i];
    }
    if (n.type !== "VariableDeclaration") return;
    n.declarations = n.declarations.map((d) => (byPort(d) as VariableDeclarator | null) ?? d);
  });
}

/** What the host cuts of call() share: where names are bound, its local functions, and the answers to
 *  "does this reach the host?", kept between questions. */
interface HostCut {
  container: Container;
  module: ModuleEntry;
  fn: FunctionNode;
  ports: Port[];
  resolver: Resolver;
  host: HostReach;
  at: (n: Node) => Place;
  dropped: PreparedCall["dropped"];
  /** Names call() declares. */
  locals: Set<string>;
  /** Names bound by the function that creates the tool (its context): neither call()'s nor module-level. */
  enclosing: Set<string>;
  localFunctions: Map<string, FunctionDeclaration>;
  hostCache: Map<string, boolean>;
  reachesHost(name: string): boolean;
  moduleReachesHost(name: string): boolean;
  /** The expression calls a function that reaches the host. */
  hostCall(e: Node): boolean;
}

function hostQuestions(
  c: Pick<HostCut, "container" | "module" | "fn" | "ports" | "resolver" | "host" | "at" | "dropped"> & { callNode: Node },
): HostCut {
  const locals = declaredNames(c.fn);
  const enclosing = enclosingBindings(c.container, c.module, c.callNode);
  const hostCache = new Map<string, boolean>();
  const localFunctions = new Map<string, FunctionDeclaration>();
  walk(c.fn.body, (n) => {
    if (n.type === "FunctionDeclaration" && n.id) localFunctions.set(n.id.name, n);
  });
  const moduleReachesHost = (name: string) => c.host.reachesFrom(c.module, name);
  const reachesHost = (name: string, seen = new Set<string>()): boolean => {
    if (hostCache.has(name)) return hostCache.get(name)!;
    if (seen.has(name)) return false;
    seen.add(name);
    let result: boolean;
    const local = localFunctions.get(name);
    if (local) {
      // A local function reaches the host if a module-level name it uses does, or a local function it calls.
      result = freeReferences(local).some((r) =>
        localFunctions.has(r.name) ? reachesHost(r.name, seen) : !locals.has(r.name) && !enclosing.has(r.name) && moduleReachesHost(r.name),
      );
    } else if (locals.has(name) || enclosing.has(name)) {
      result = false;
    } else {
      result = moduleReachesHost(name);
    }
    hostCache.set(name, result);
    return result;
  };
  const hostCall = (e: Node) =>
    someNode(
      e,
      (n) => n.type === "CallExpression" && n.callee.type === "Identifier" && !locals.has(n.callee.name) && reachesHost(n.callee.name),
    );
  return { ...c, locals, enclosing, localFunctions, hostCache, reachesHost: (name) => reachesHost(name), moduleReachesHost, hostCall };
}

/** A call whose value is thrown away, to a function a port drops or that reaches the host. */
function droppable(cut: HostCut, e: Node): boolean {
  if (e.type !== "CallExpression" || e.callee.type !== "Identifier") return false;
  if (!droppedByPort(e, cut.ports) && !cut.reachesHost(e.callee.name)) return false;
  cut.dropped.push({ name: e.callee.name, at: cut.at(e) });
  return true;
}

const isConstant = (e: Node) =>
  ((e.type === "ArrayExpression" || e.type === "ObjectExpression") &&
    ((e as ArrayExpression).elements ?? (e as ObjectExpression).properties).length === 0) ||
  (e.type === "UnaryExpression" && e.operator === "void" && e.argument.type === "Literal") ||
  (e.type === "Literal" && e.value === null);

/**
 * `flag() ? failedServers(…) : []`: where the host decides between extra information and a constant, the
 * empty client takes the constant; `mode(tools) ? [] : pending()`, a host check that answers with a
 * constant when on, is off in the empty client; and `flag(…) ? refreshed() : state().clients`, a test that
 * is a host check itself, says no there, as an `if` does (cutHostGatedBranches).
 */
function replaceHostConditionals(cut: HostCut, n: Node): void {
  if (!n || typeof n !== "object") return;
  const flagOn = (c: ConditionalExpression) => c.test.type === "CallExpression" && isConstant(c.consequent) && cut.hostCall(c.test);
  const fix = (c: Node) =>
    c?.type === "ConditionalExpression" &&
    ((isConstant(c.alternate) && (cut.hostCall(c.test) || cut.hostCall(c.consequent))) ||
      flagOn(c) ||
      hostGate(c.test, cut.reachesHost) !== null)
      ? (cut.dropped.push({ name: "(host branch)", at: cut.at(c) }), c.alternate)
      : c;
  const fields = fieldsOf(n);
  for (const key in fields) {
    const v = fields[key];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        v[i] = fix(v[i]);
        replaceHostConditionals(cut, v[i]);
      }
    } else if (isNode(v)) {
      fields[key] = fix(v);
      replaceHostConditionals(cut, fields[key] as Node);
    }
  }
}

/**
 * `failedServers(clients)` whose own first step is `if (!flag()) return []`, or `withReplNotice(result, …)`
 * whose first step is `if (!replMode(tools)) return result`: the host's choice made inside a helper — with
 * the host's checks off, the empty client takes that answer. Null where `e` is no such call.
 */
function guardedConstant(cut: HostCut, e: Node): Node | null {
  // The helper's shape is checked first: asking whether it reaches the host can mean walking its closure.
  if (e?.type !== "CallExpression" || e.callee.type !== "Identifier" || cut.locals.has(e.callee.name) || cut.enclosing.has(e.callee.name))
    return null;
  const d = cut.resolver.resolve(cut.module, e.callee.name);
  const f = (d?.node.type === "FunctionDeclaration" ? d.node : (d?.node as VariableDeclarator | undefined)?.init) as
    FunctionNode | null | undefined;
  const guard = hostGuard(f);
  if (!guard) return null;
  const { ret, check } = guard;
  const param = f!.params.findIndex(
    (p: Node) => p.type === "Identifier" && ret.argument.type === "Identifier" && p.name === ret.argument.name,
  );
  if (!isConstant(ret.argument) && !(param >= 0 && e.arguments[param] && e.arguments[param].type !== "SpreadElement")) return null;
  if (!cut.host.reachesFrom(d!.module, check) || !cut.reachesHost(e.callee.name)) return null;
  cut.dropped.push({ name: e.callee.name, at: cut.at(e) });
  const answer = param >= 0 ? e.arguments[param] : ret.argument;
  return { ...structuredClone(answer), start: e.start, end: e.end, range: [e.start, e.end] };
}

/**
 * A helper that opens with `if (!check(…)) return X` (or `!check(…) || …`), or with
 * `let view = state(context); if (view === undefined) return X` — with no state in the empty client the
 * host's lookup finds nothing: the return and the name of the host's check.
 */
function hostGuard(f: FunctionNode | null | undefined): { ret: ReturnStatement & { argument: Expression }; check: string } | null {
  const statements: Node[] = f?.body?.type === "BlockStatement" ? f.body.body : [];
  const lookup =
    statements[0]?.type === "VariableDeclaration" && statements[0].declarations.length === 1 ? statements[0].declarations[0] : null;
  const lookedUp =
    lookup?.id.type === "Identifier" && lookup.init?.type === "CallExpression" && lookup.init.callee.type === "Identifier" ? lookup : null;
  const first = lookedUp ? statements[1] : statements[0];
  if (first?.type !== "IfStatement" || first.alternate) return null;
  const ret =
    first.consequent.type === "BlockStatement" && first.consequent.body.length === 1 ? first.consequent.body[0] : first.consequent;
  if (ret?.type !== "ReturnStatement" || !ret.argument) return null;
  const test = first.test.type === "LogicalExpression" && first.test.operator === "||" ? first.test.left : first.test;
  const none = (t: Node) =>
    t.type === "BinaryExpression" &&
    (t.operator === "===" || t.operator === "==") &&
    t.left.type === "Identifier" &&
    t.left.name === (lookedUp!.id as Identifier).name &&
    t.right.type === "UnaryExpression" &&
    t.right.operator === "void";
  const negated = (t: Node) =>
    t.type === "UnaryExpression" && t.operator === "!" && t.argument.type === "CallExpression" && t.argument.callee.type === "Identifier";
  const check = lookedUp
    ? none(test)
      ? ((lookedUp.init as CallExpression).callee as Identifier).name
      : null
    : negated(test)
      ? (((test as UnaryExpression).argument as CallExpression).callee as Identifier).name
      : null;
  return check ? { ret: ret as ReturnStatement & { argument: Expression }, check } : null;
}

/** A local function left doing nothing anyone reads — no return value, nothing assigned outside it,
 *  every call discarded — was there for the effects just cut: it goes too, with its calls. */
function removeEffectOnlyFunctions(cut: HostCut): void {
  const body = cut.fn.body;
  for (const [name, decl] of cut.localFunctions) {
    if (!effectOnly(decl, body)) continue;
    cutEffects(body, (e) => e.type === "CallExpression" && e.callee.type === "Identifier" && e.callee.name === name);
    if (!usedOutside(name, decl, body)) {
      removeStatement(body, decl);
      cut.localFunctions.delete(name);
      cut.hostCache.set(name, false);
    }
  }
}

/** Local functions left unreferenced after the cut, and that reach the host, go too; one still used for
 *  its value stops the lift, naming where it meets the host. */
function removeHostFunctions(cut: HostCut): void {
  for (const [name, decl] of cut.localFunctions) {
    if (!cut.reachesHost(name)) continue;
    if (usedOutside(name, decl, cut.fn.body))
      throw new LiftError(`call() uses ${name}, which reaches the host${hostRoute(cut, name)}, for its value`, cut.at(decl));
    removeStatement(cut.fn.body, decl);
  }
}

/** Where a local function meets the host: the first module-level name on the way, and its route. */
function hostRoute(cut: HostCut, name: string): string {
  const local = cut.localFunctions.get(name);
  const via = local ? freeReferences(local).find((r) => !cut.locals.has(r.name) && cut.moduleReachesHost(r.name))?.name : undefined;
  if (!via) return "";
  const d = cut.resolver.resolve(cut.module, via);
  if (!d) return ` through ${via}`;
  const cl = collectClosure(cut.container, [{ module: d.module, node: d.node, name: d.name }], cut.ports, {
    stopAtHost: true,
    limit: HOST_LIMIT,
    resolver: cut.resolver,
  });
  const env = cl.environment[0];
  return env
    ? ` through ${via} (${env.in.slice(env.in.lastIndexOf("#") + 1)} uses ${env.name})`
    : ` through ${via} (a closure of ${HOST_LIMIT}+ definitions)`;
}

/**
 * The context argument's source. From 2.1.3xx call() reads the tool's context from the function that
 * created it (`create(context) { return { async call(input, options) { let { tools, … } = context; … } } }`):
 * that free name becomes a third parameter, which the adapter fills the same way.
 */
function contextArgument(module: ModuleEntry, fn: FunctionNode, enclosing: Set<string>, resolver: Resolver): string {
  const facts = bodyFacts(fn.body);
  const context = contextSource(fn.params[1], facts);
  const outer = outerContext(module, fn, enclosing, resolver);
  if (!outer) return context;
  const pos = { start: fn.start, end: fn.start, range: [fn.start, fn.start] as [number, number] };
  while (fn.params.length < 2) fn.params.push({ type: "Identifier", name: `unused${fn.params.length}`, ...pos });
  // The client's context, which call() reads from its enclosing scope, becomes its third parameter; the namer
  // calls it what it is (a role carried on the node, as no source offset is its own).
  fn.params.push({ type: "Identifier", name: outer, role: "context", ...pos } as Identifier);
  return `${context}, ${contextSource({ type: "Identifier", name: outer, ...pos }, facts)}`;
}

/**
 * From 2.1.3xx call() computes its deferred tools with a local function of the tools
 * (`deferredOf = (tools) => { …flags…; return tools.filter((t) => policy(t, …)) }`, then
 * `deferred = deferredOf(all)`, again after a refresh). That function becomes the caller's policy:
 * `(tools) => tools.filter(deferredByCaller)`.
 */
/** `deferred = all.filter(policy)` with a named policy, where no signature bound it: the name. */
function namedPolicy(fn: FunctionNode, deferred: string | undefined, all: string | undefined): Node | null {
  const policy = filteredBy(deferredSite(fn, deferred)?.init, all);
  return policy?.type === "Identifier" ? policy : null;
}

/** The declarator of call()'s local `deferred`. */
function deferredSite(fn: FunctionNode, deferred: string | undefined): VariableDeclarator | null {
  let site: VariableDeclarator | null = null;
  walk(fn.body, (n) => {
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.id.name === deferred) site = n;
  });
  return site;
}

/** X in `all.filter(X)`, or null. */
function filteredBy(init: Node | null | undefined, all: string | undefined): Node | null {
  return init?.type === "CallExpression" &&
    init.callee.type === "MemberExpression" &&
    memberName(init.callee) === "filter" &&
    init.callee.object.type === "Identifier" &&
    init.callee.object.name === all &&
    init.arguments.length === 1
    ? init.arguments[0]!
    : null;
}

function policyFunction(fn: FunctionNode, deferred: string | undefined, all: string | undefined, at: (n: Node) => Place): void {
  if (!deferred || !all) throw new LiftError("call() binds neither the defer policy nor its deferred and all tools");
  const site = deferredSite(fn, deferred);
  const init = site?.init;
  // `deferred = all.filter((t) => …policy…)`: the filter's callback is the policy.
  const callback = filteredBy(init, all);
  if (callback && /Function/.test(callback.type)) {
    (init as CallExpression).arguments[0] = {
      type: "Identifier",
      name: DEFERRED_BY_CALLER,
      start: callback.start,
      end: callback.end,
      range: [callback.start, callback.end],
    };
    return;
  }
  if (!init || init.type !== "CallExpression" || init.callee.type !== "Identifier" || init.arguments.length !== 1) {
    throw new LiftError(`the defer policy is not bound and ${deferred} is not a local function of the tools`, site ? at(site) : undefined);
  }
  const name = init.callee.name;
  let local: Node | null = null;
  walk(fn.body, (n) => {
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.id.name === name && /Function/.test(n.init?.type ?? ""))
      local = n.init!;
    if (n.type === "FunctionDeclaration" && n.id?.name === name) local = n;
  });
  const f = local as FunctionNode | null;
  if (!f || f.params.length !== 1 || f.params[0].type !== "Identifier")
    throw new LiftError(`${name}, which computes the deferred tools, is not a local function of one parameter`, at(init));
  const param = f.params[0].name;
  let filters = false;
  walk(f.body, (n) => {
    if (n.type === "ReturnStatement" || f.body.type !== "BlockStatement") {
      const ret = n.type === "ReturnStatement" ? n.argument : f.body;
      if (ret?.type === "CallExpression" && ret.callee.type === "MemberExpression" && memberName(ret.callee) === "filter") filters = true;
    }
  });
  if (!filters) throw new LiftError(`${name}, which computes the deferred tools, does not return a filter of ${param}`, at(f));
  const pos = { start: f.body.start, end: f.body.end, range: [f.body.start, f.body.end] as [number, number] };
  const id = (n: string): Identifier => ({ type: "Identifier", name: n, ...pos });
  const body: CallExpression = {
    type: "CallExpression",
    callee: { type: "MemberExpression", object: id(param), property: id("filter"), computed: false, optional: false, ...pos },
    arguments: [id(DEFERRED_BY_CALLER)],
    optional: false,
    ...pos,
  };
  // The function's body is replaced whatever kind of function it is (a declaration takes a block).
  fieldsOf(f).body =
    f.type === "FunctionDeclaration"
      ? { type: "BlockStatement", body: [{ type: "ReturnStatement", argument: body, ...pos }], ...pos }
      : body;
  if (f.type !== "FunctionDeclaration") f.expression = true;
}

/**
 * Remove `let x = hostCall(…)` declarators whose value is never read (by scope), until none is left.
 * The scopes are analysed once: a removal takes away the declarator's variable, and the scopes and
 * references inside it, and nothing else a new analysis would find (the variable had no reads, so
 * its writes, now resolved further out, read nothing either). Removed nodes are skipped instead.
 */
function removeUnusedHostLocals(
  fn: Node,
  reachesHost: (e: Node) => boolean,
  dropped: Array<{ name: string; at: Place }>,
  at: (n: Node) => Place,
): void {
  const scopes = analyzeFunction(fn).scopes;
  const removed = new Set<Node>();
  const isRead = (r: Reference) => r.isRead() && !removed.has(r.identifier as unknown as Node);
  for (let round = 0; round < 256; round++) {
    let target: VariableDeclarator | null = null;
    for (const scope of scopes) {
      for (const v of scope.variables) {
        const def = v.defs[0];
        if (v.defs.length !== 1 || def?.type !== "Variable") continue;
        const d = def.node as unknown as VariableDeclarator;
        if (removed.has(d as Node)) continue;
        if (d.id?.type !== "Identifier" || !d.init || v.references.some(isRead) || !reachesHost(d.init)) continue;
        target = d;
        break;
      }
      if (target) break;
    }
    if (!target) return;
    const d = target;
    walk(d as Node, (n) => void removed.add(n));
    dropped.push({ name: ((d.init as CallExpression).callee as Identifier | undefined)?.name ?? (d.id as Identifier).name, at: at(d) });
    walk(fn, (n) => {
      if (n.type === "VariableDeclaration") n.declarations = n.declarations.filter((x: Node) => x !== d);
    });
    // A declaration left with no declarators is removed with it.
    removeStatementsWhere(fn, (s) => s.type === "VariableDeclaration" && s.declarations.length === 0);
  }
}

/**
 * `family(tool.name, configuredServers)` where a port made `family` answer a constant (`return
 * undefined`): the call is that constant, so what was passed to it (the client's getters) is not
 * brought along. Only calls whose arguments do nothing (names, literals, member reads) are folded.
 */
function inlinePortedConstants(
  root: Node,
  module: ModuleEntry,
  locals: Set<string>,
  ports: Port[],
  resolver: Resolver,
  folded: (name: string) => void,
): void {
  const cache = new Map<string, Node | null>();
  const constantOf = (name: string): Node | null => {
    if (cache.has(name)) return cache.get(name)!;
    let out: Node | null = null;
    const d = resolver.resolve(module, name);
    const port = d ? portFor(d.node, ports) : null;
    const f = port?.node.type === "FunctionDeclaration" ? port.node : null;
    const only = f && !f.async && f.body.body.length === 1 ? f.body.body[0] : null;
    const v = only?.type === "ReturnStatement" ? only.argument : null;
    if (
      v &&
      ((v.type === "UnaryExpression" && v.operator === "void" && v.argument.type === "Literal") ||
        (v.type === "Literal" && (typeof v.value === "boolean" || v.value === null)))
    )
      out = v;
    cache.set(name, out);
    return out;
  };
  const inert = (a: Node): boolean =>
    a.type === "Identifier" || a.type === "Literal" || (a.type === "MemberExpression" && !a.computed && inert(a.object));
  const one = (c: Node): Node => {
    if (c?.type !== "CallExpression" || c.callee.type !== "Identifier" || locals.has(c.callee.name) || !c.arguments.every(inert)) return c;
    const v = constantOf(c.callee.name);
    if (!v) return c;
    folded(c.callee.name);
    return { ...structuredClone(v), start: c.start, end: c.end, range: [c.start, c.end] as [number, number] };
  };
  rewriteTree(root, one);
}

/** The host check a test opens with — `check(…)`, or `check(…) && …` / `… && check(…)` — or null: the
 *  neutral client's host says no to every such check. */
function hostGate(t: Node, hostFn: (name: string) => boolean): string | null {
  if (t.type === "CallExpression" && t.callee.type === "Identifier" && hostFn(t.callee.name)) return t.callee.name;
  if (t.type === "LogicalExpression" && t.operator === "&&") return hostGate(t.left, hostFn) ?? hostGate(t.right, hostFn);
  return null;
}

/**
 * `if (replMode() && …) { … }` with no else: a branch that runs only when a check of the host's says
 * yes. The neutral client's host says no to every such check, so the branch goes.
 */
function cutHostGatedBranches(root: Node, hostFn: (name: string) => boolean, cut: (name: string) => void): void {
  removeStatementsWhere(root, (s) => {
    const name = s.type === "IfStatement" && !s.alternate ? hostGate(s.test, hostFn) : null;
    if (name) cut(`(${name}: off)`);
    return !!name;
  });
}

/** Replace reads of module-level `x = import.meta.require(…)` / `require(…)` used only as `x?.…` by undefined. */
function optionalModules(fn: Node, module: ModuleEntry, resolver: Resolver): string[] {
  const out: string[] = [];
  const loaded = (init: Node | null | undefined) =>
    init?.type === "CallExpression" &&
    ((init.callee.type === "Identifier" && init.callee.name === "require") ||
      (init.callee.type === "MemberExpression" && init.callee.object.type === "MetaProperty" && memberName(init.callee) === "require"));
  // Only names read through `?.` somewhere are candidates; the rest are not looked up at all.
  const optionalObjects = new Set<string>();
  walk(fn, (n) => {
    if (n.type === "MemberExpression" && n.optional && n.object.type === "Identifier") optionalObjects.add(n.object.name);
  });
  for (const { name } of freeReferences(fn)) {
    if (!optionalObjects.has(name)) continue;
    let optional = 0;
    let other = 0;
    walk(fn, (n) => {
      if (n.type === "MemberExpression" && n.object.type === "Identifier" && n.object.name === name) {
        if (n.optional) optional++;
        else other++;
      }
      if (n.type === "Identifier" && n.name === name) other++;
    });
    // Each optional use also counted its identifier once.
    if (optional === 0 || other !== optional) continue;
    const d = resolver.resolve(module, name);
    if (!d || d.node.type !== "VariableDeclarator" || !loaded(d.node.init)) continue;
    rewriteTree(fn, (n) =>
      n.type === "MemberExpression" && n.object.type === "Identifier" && n.object.name === name
        ? {
            ...n,
            object: {
              type: "UnaryExpression",
              operator: "void",
              prefix: true,
              argument: { type: "Literal", value: 0, raw: "0", start: n.object.start, end: n.object.end },
              start: n.object.start,
              end: n.object.end,
            },
          }
        : n,
    );
    out.push(name);
  }
  return out;
}

/** Expressions a port names (a call building a message for the model), replaced where they stand. */
function replacePortedExpressions(root: Node, ports: Port[], replaced: (port: string, at: Node) => void): void {
  const expressionPorts = ports.filter((p) => p.anchor && p.replace && p.anchor.root.type === "CallExpression");
  if (expressionPorts.length === 0) return;
  const one = (c: Node): Node => {
    if (c?.type !== "CallExpression") return c;
    for (const p of expressionPorts) {
      const b = matchNode(p.anchor!.root, c, new Map());
      if (!b) continue;
      replaced(p.name, c);
      return { ...instantiate(p.replace!, b), start: c.start, end: c.end, range: [c.start, c.end] as [number, number] };
    }
    return c;
  };
  rewriteTree(root, one);
}

/** Names declared anywhere inside a function (parameters, variables, functions, classes, catch). */
export function declaredNames(fn: Node): Set<string> {
  const out = new Set<string>();
  const bind = (p: Node | null | undefined) => addBindingNames(p, out);
  walk(fn, (n) => {
    if (n.type === "VariableDeclarator") bind(n.id);
    if ((n.type === "FunctionDeclaration" || n.type === "ClassDeclaration") && n.id) out.add(n.id.name);
    if (isFunction(n)) n.params.forEach(bind);
    if (n.type === "CatchClause") bind(n.param);
  });
  return out;
}

/** Remove discarded host calls: whole expression statements, and discarded elements of sequences. */
function cutEffects(root: Node, droppable: (e: Node) => boolean): void {
  const visit = (n: Node) => {
    if (!n || typeof n !== "object") return;
    const fields = fieldsOf(n);
    for (const key in fields) {
      const v = fields[key];
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const s = v[i];
          if (s?.type === "ExpressionStatement") {
            const kept = keepOf(s.expression, true, droppable);
            if (kept === null) {
              v.splice(i--, 1);
              continue;
            }
            s.expression = kept;
          }
          visit(s);
        }
      } else if (isNode(v)) {
        if (v.type === "ExpressionStatement") {
          const kept = keepOf(v.expression, true, droppable);
          if (kept === null) fields[key] = { type: "EmptyStatement", start: v.start, end: v.end, range: v.range };
          else v.expression = kept as Expression;
        } else if (v.type === "SequenceExpression") {
          fields[key] = keepOf(v, false, droppable);
        }
        visit(fields[key] as Node);
      }
    }
  };
  visit(root);
}

/** What remains of an expression once discarded host calls are removed (null: nothing). */
function keepOf(e: Node, discarded: boolean, droppable: (e: Node) => boolean): Node | null {
  if (e.type === "SequenceExpression") {
    const last = e.expressions.length - 1;
    const kept = e.expressions.filter((x: Node, i: number) => !((discarded || i < last) && droppable(x)));
    if (kept.length === 0) return null;
    return kept.length === 1 ? kept[0] : { ...e, expressions: kept };
  }
  // `await sleep(…)` as a statement waits on the host and yields nothing: the same as a discarded call.
  if (discarded && e.type === "AwaitExpression" && droppable(e.argument)) return null;
  return discarded && droppable(e) ? null : e;
}

/** Whether `name` is mentioned in `body` anywhere but its own declaration. */
function usedOutside(name: string, decl: FunctionDeclaration, body: Node): boolean {
  let used = false;
  walk(body, (n) => {
    if (n.type === "Identifier" && n.name === name && n !== decl.id) used = true;
  });
  return used;
}

/**
 * A local function whose work nobody reads: it returns nothing, assigns nothing outside itself,
 * and every call of it stands as a statement or a discarded element of a sequence.
 */
function effectOnly(decl: FunctionDeclaration, body: Node): boolean {
  let returns = false;
  const own = declaredNames(decl);
  let assignsOut = false;
  walk(decl.body, (n) => {
    if (n.type === "ReturnStatement" && n.argument) returns = true;
    const target = n.type === "AssignmentExpression" ? n.left : n.type === "UpdateExpression" ? n.argument : null;
    if (target && !(target.type === "Identifier" && own.has(target.name))) assignsOut = true;
  });
  if (returns || assignsOut) return false;
  const name = decl.id.name;
  let calls = 0;
  let discarded = 0;
  walk(body, (n) => {
    if (n.type === "CallExpression" && n.callee.type === "Identifier" && n.callee.name === name) calls++;
    const expressions = n.type === "ExpressionStatement" ? [n.expression] : [];
    for (const e of expressions) {
      const parts = e.type === "SequenceExpression" ? e.expressions : [e];
      for (const p of parts) if (p.type === "CallExpression" && p.callee.type === "Identifier" && p.callee.name === name) discarded++;
    }
    if (n.type === "SequenceExpression") {
      for (const p of n.expressions.slice(0, -1))
        if (p.type === "CallExpression" && p.callee.type === "Identifier" && p.callee.name === name) discarded++;
    }
  });
  return calls > 0 && calls <= discarded;
}

/** `if (x.length > 0) ; else ;` left behind by a cut: gone when the test itself does nothing. */
function pruneEmptyIfs(root: Node): void {
  const empty = (s: Node | null | undefined) => !s || s.type === "EmptyStatement" || (s.type === "BlockStatement" && s.body.length === 0);
  const pure = (e: Node) => {
    let ok = true;
    walk(e, (n) => {
      if (
        /^(Call|New|Assignment|Update|Await|Yield|TaggedTemplate)Expression$/.test(n.type) ||
        (n.type === "UnaryExpression" && n.operator === "delete")
      )
        ok = false;
    });
    return ok;
  };
  removeStatementsWhere(root, (s) => s.type === "IfStatement" && empty(s.consequent) && empty(s.alternate) && pure(s.test));
}

/** Remove, from every statement list under root, the statements `drop` picks. */
function removeStatementsWhere(root: Node, drop: (s: Node) => boolean): void {
  walk(root, (n) => {
    for (const key of ["body", "consequent"]) {
      const list = fieldsOf(n)[key];
      if (Array.isArray(list)) for (let i = list.length - 1; i >= 0; i--) if (list[i] && drop(list[i])) list.splice(i, 1);
    }
  });
}

function removeStatement(body: Node, target: Node): void {
  walk(body, (n) => {
    for (const key of ["body", "consequent"]) {
      const list = fieldsOf(n)[key];
      if (Array.isArray(list)) {
        const i = list.indexOf(target);
        if (i >= 0) list.splice(i, 1);
      }
    }
  });
}

/**
 * The one free name of call() that is no module-level definition: the creating function's
 * parameter. Names the enclosing code binds are asked first; only without one is every free name
 * looked up at module level.
 */
function outerContext(module: ModuleEntry, fn: Node, enclosing: Set<string>, resolver: Resolver): string | null {
  const free = freeReferences(fn)
    .map((r) => r.name)
    .filter((n) => !BUILTINS.has(n) && !ENVIRONMENT.has(n) && n !== DEFERRED_BY_CALLER);
  const bound = free.filter((n) => enclosing.has(n));
  const names = bound.length ? bound : free.filter((n) => !resolver.resolve(module, n));
  return names.length === 1 ? names[0]! : null;
}

/**
 * What contextSource asks about call()'s body, for every name at once (two walks, not four per
 * destructured property):
 * - paths: dotted property chains read from a name (`context.options.tools` → ["options", "tools"]),
 *   except a chain that call() itself assigns (`context.session ??= new Session()`, the client's to leave unset);
 * - patterns: `let { tools, … } = name` destructurings of a name;
 * - optional / plain: uses as `name?.(…)`, `name?.x` and as `name(…)`, `name.x`; tested: bare tests
 *   (`name && …`, `!name`, `name ? … : …`);
 * - ids: every identifier of that name; methodCalls: `name.method(…)`; declared: its own bindings in
 *   destructuring patterns.
 */
interface BodyFacts {
  paths: Map<string, string[][]>;
  patterns: Map<string, Node[]>;
  uses: Map<string, { optional: number; plain: number; tested: number; ids: number; methodCalls: number; declared: number }>;
}

function bodyFacts(body: Node): BodyFacts {
  const facts: BodyFacts = { paths: new Map(), patterns: new Map(), uses: new Map() };
  const use = (name: string) => {
    let u = facts.uses.get(name);
    if (!u) facts.uses.set(name, (u = { optional: 0, plain: 0, tested: 0, ids: 0, methodCalls: 0, declared: 0 }));
    return u;
  };
  const push = <T>(m: Map<string, T[]>, name: string, v: T) => {
    const list = m.get(name);
    if (list) list.push(v);
    else m.set(name, [v]);
  };
  const assigned = new Set<Node>();
  walk(body, (n) => {
    if (n.type === "AssignmentExpression" && n.left.type === "MemberExpression") assigned.add(n.left);
  });
  const id = (e: Node | null | undefined): string | null => (e?.type === "Identifier" ? e.name : null);
  walk(body, (n) => {
    if (n.type === "Identifier") use(n.name).ids++;
    if (n.type === "MemberExpression" && !n.computed && !assigned.has(n)) {
      const path: string[] = [];
      let cur: Node = n;
      for (let name; cur.type === "MemberExpression" && (name = memberName(cur)) !== undefined; cur = cur.object) path.unshift(name);
      if (cur.type === "Identifier") push(facts.paths, cur.name, path);
    }
    if (n.type === "VariableDeclarator" && n.id.type === "ObjectPattern" && n.init?.type === "Identifier")
      push(facts.patterns, n.init.name, n.id);
    if (n.type === "CallExpression" || n.type === "MemberExpression") {
      const target = id(n.type === "CallExpression" ? n.callee : n.object);
      if (target) {
        if (n.optional) use(target).optional++;
        else use(target).plain++;
      }
    }
    if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && n.callee.object.type === "Identifier")
      use(n.callee.object.name).methodCalls++;
    if (n.type === "ObjectPattern")
      for (const p of n.properties)
        if ((p as AssignmentProperty).value?.type === "Identifier") use(((p as AssignmentProperty).value as Identifier).name).declared++;
    // `refresh && …`, `!refresh`, `refresh ? … : …`: the code itself allows for its absence.
    const tested =
      n.type === "LogicalExpression"
        ? id(n.left)
        : n.type === "UnaryExpression" && n.operator === "!"
          ? id(n.argument)
          : n.type === "ConditionalExpression" || n.type === "IfStatement"
            ? id(n.test)
            : null;
    if (tested) use(tested).tested++;
  });
  return facts;
}

/** Source of the context argument for call()'s second parameter pattern. */
function contextSource(param: Node | undefined, facts: BodyFacts): string {
  if (!param) return "undefined";
  if (param.type === "AssignmentPattern") return contextSource(param.left, facts);
  if (param.type === "ObjectPattern") {
    const props = param.properties
      .filter((p: Node): p is AssignmentProperty => p.type === "Property" && !p.computed)
      .map((p) => {
        const key = p.key.type === "Identifier" ? p.key.name : String((p.key as Literal).value);
        const value =
          key === "tools" && (p.value.type === "Identifier" || p.value.type === "AssignmentPattern")
            ? "allTools"
            : contextSource(p.value, facts);
        return `${JSON.stringify(key)}: ${value}`;
      });
    return `{ ${props.join(", ")} }`;
  }
  if (param.type === "Identifier") {
    const paths = facts.paths.get(param.name) ?? [];
    const patterns = facts.patterns.get(param.name) ?? [];
    const u = facts.uses.get(param.name);
    if (patterns.length > 0) {
      // `let { tools, refreshTools } = context`: the pattern decides, member reads add to it.
      const fromPattern = patterns.map((p) => contextSource(p, facts).slice(2, -2)).filter(Boolean);
      const fromPaths =
        paths.length > 0
          ? objectFromPaths(paths.filter((p) => !fromPattern.some((f) => f.includes(JSON.stringify(p[0]) + ":")))).slice(2, -2)
          : "";
      return `{ ${[...fromPattern, ...(fromPaths ? [fromPaths] : [])].join(", ")} }`;
    }
    // Used only as `name?.(…)`/`name?.x`, or tested (`!name`): the client may leave it out.
    if (paths.length === 0) return u && ((u.optional > 0 && u.plain === 0) || u.tested > 0) ? "undefined" : "emptyState()";
    // `state.get(Cache)`, `timing.mark(…)`: only methods called on it — the empty state answers those
    // (a store keyed by class makes a fresh instance), an object of empty leaves would not.
    if (paths.every((p) => p.length === 1) && u && u.methodCalls > 0 && u.ids - u.declared === u.methodCalls) return "emptyState()";
    return objectFromPaths(paths);
  }
  return "emptyState()";
}

/** An object literal with `tools` leaves as the tools and every other leaf neutral. */
function objectFromPaths(paths: string[][]): string {
  type Trie = Map<string, Trie>;
  const root: Trie = new Map();
  for (const p of paths) {
    let t = root;
    for (const key of p) {
      if (!t.has(key)) t.set(key, new Map());
      t = t.get(key)!;
    }
  }
  const render = (t: Trie, key: string | null): string => {
    if (key === "tools") return "allTools";
    if (t.size === 0) return "emptyState()";
    return `{ ${[...t].map(([k, sub]) => `${JSON.stringify(k)}: ${render(sub, k)}`).join(", ")} }`;
  };
  return render(root, null);
}

/**
 * Cut discarded calls to host-reaching functions (logging, telemetry, cache bookkeeping) out of
 * any definition of the closure — a helper class's methods log too. Returns what was cut.
 */
export function cutHostEffects(def: { module: ModuleEntry; node: Node }, ports: Port[], resolver: Resolver, host: HostReach): string[] {
  const cut: string[] = [];
  replacePortedExpressions(def.node, ports, (name) => cut.push(`(${name})`));
  const locals = declaredNames(def.node);
  inlinePortedConstants(def.node, def.module, locals, ports, resolver, (name) => cut.push(name));
  cutHostGatedBranches(
    def.node,
    (name) => !locals.has(name) && host.reachesFrom(def.module, name),
    (name) => cut.push(name),
  );
  const droppable = (e: Node): boolean => {
    if (inlineHostWait(e, (name) => !locals.has(name) && host.reachesFrom(def.module, name))) {
      cut.push("(an inline wait on the host)");
      return true;
    }
    if (e.type !== "CallExpression" || e.callee.type !== "Identifier" || locals.has(e.callee.name)) return false;
    if (!droppedByPort(e, ports) && !host.reachesFrom(def.module, e.callee.name)) return false;
    cut.push(e.callee.name);
    return true;
  };
  cutEffects(def.node, droppable);
  return cut;
}

/** The host's timers: a promise settled by one of them is a wait, whatever the code around it. */
const TIMERS = new Set(["setTimeout", "setImmediate", "queueMicrotask", "setInterval"]);

/**
 * A wait written in place rather than through a named helper: `new Promise((r) => setImmediate(r))`, or a
 * function applied in place whose body reaches the host (`(() => new Promise(…))()`) — its value discarded
 * (a statement, or awaited as one), it changes when the work runs, never what it returns.
 */
function inlineHostWait(e: Node, reachesHost: (name: string) => boolean): boolean {
  const mentionsHost = (body: Node) => someNode(body, (n) => n.type === "Identifier" && (TIMERS.has(n.name) || reachesHost(n.name)));
  if (e.type === "NewExpression" && e.callee.type === "Identifier" && e.callee.name === "Promise" && e.arguments.length === 1) {
    const executor = e.arguments[0]!;
    return isFunction(executor) && someNode(executor, (n) => n.type === "Identifier" && TIMERS.has(n.name));
  }
  if (e.type === "CallExpression" && e.arguments.length === 0 && isFunction(e.callee) && e.callee.params.length === 0) {
    return mentionsHost(e.callee.body);
  }
  return false;
}

/** A call a signature's drop port recognises (telemetry), with its kind constraints met. */
function droppedByPort(e: Node, ports: Port[]): boolean {
  return ports.some((p) => {
    if (!p.drop) return false;
    const b = matchNode(p.drop.root, e, new Map());
    return (
      !!b &&
      Object.entries(p.kinds).every(([meta, kind]) => {
        const v = b.get(meta);
        return (
          !!v &&
          !Array.isArray(v) &&
          (kind === "string" ? v.type === "Literal" && typeof v.value === "string" : v.type === "ObjectExpression")
        );
      })
    );
  });
}
