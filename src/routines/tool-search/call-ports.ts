/**
 * The tool's call() made liftable: the client's environment is cut at ports.
 *
 * - Effects: a call whose value is thrown away (a statement, or a discarded element of a comma
 *   sequence) to a function that reaches the host — logging, telemetry, cache invalidation — is
 *   dropped; so is a local function that only exists to do such effects.
 * - The defer policy: `allTools.filter(policy)` becomes `allTools.filter(deferredByCaller)`, the
 *   contract's own list of deferred tools (the release's policy reads feature flags; defer-policy.ts).
 * - The context argument: built from call()'s own destructuring pattern — the tools where it reads
 *   `tools`, `undefined` where it only calls optionally (`refresh?.()`), and an empty client state
 *   everywhere else (no MCP servers, nothing pending; call-context.ts).
 * The cuts any routine's code needs (discarded host calls, ported expressions, gated branches, statements
 * left with nothing to do) are the lift's: lift/host-cut.ts and lift/prune.ts.
 */
import type { Container, ModuleEntry } from "../../extract/types.js";
import type { LocatedRoutine } from "../../locate/locate.js";
import { lineColumn } from "../../ast/parse-module.js";
import type {
  ArrayExpression,
  CallExpression,
  ConditionalExpression,
  Expression,
  FunctionDeclaration,
  FunctionExpression,
  Identifier,
  ObjectExpression,
  Property,
  ReturnStatement,
  UnaryExpression,
  VariableDeclarator,
} from "acorn";
import { fieldsOf, instantiate, isNode, isNodeList, matchNode, someNode, walk, type FunctionNode, type Node } from "../../ast/pattern.js";
import type { Port } from "../../locate/signature.js";
import { collectClosure, freeReferences, Resolver, type Place } from "../../lift/closure.js";
import { LiftError } from "../../lift/lift-error.js";
import { foldUndefinedLocals } from "../../lift/fold/fold-undefined.js";
import { rewriteTree } from "../../ast/rewrite.js";
import { HOST_LIMIT, HostReach } from "../../lift/host-reach.js";
import { enclosingBindings } from "../../lift/enclosing-scope.js";
import {
  replacePortedExpressions,
  hostGate,
  optionalModules,
  removeUnusedHostLocals,
  cutEffects,
  droppedByPort,
} from "../../lift/host-cut.js";
import { declaredNames, usedOutside, effectOnly, pruneEmptyIfs, removeStatement } from "../../lift/prune.js";
import { contextArgument } from "./call-context.js";
import { replaceDeferPolicy } from "./defer-policy.js";

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
  const node = structuredClone<Node>(m.node);
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
      if (isNodeList(list))
        for (let i = 0; i < list.length; i++) {
          const s = list[i];
          if (s?.type === "FunctionDeclaration") list[i] = byPort(s) ?? s;
        }
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
      hostGate(c.test, (name) => cut.reachesHost(name)) !== null)
      ? (cut.dropped.push({ name: "(host branch)", at: cut.at(c) }), c.alternate)
      : c;
  const fields = fieldsOf(n);
  for (const key in fields) {
    const v = fields[key];
    if (isNodeList(v)) {
      for (let i = 0; i < v.length; i++) {
        const c = v[i];
        // A hole of an array literal: nothing to fix.
        if (!c) continue;
        const fixed = fix(c);
        v[i] = fixed;
        replaceHostConditionals(cut, fixed);
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
  const passed = param >= 0 ? e.arguments[param] : undefined;
  if (!isConstant(ret.argument) && !(passed && passed.type !== "SpreadElement")) return null;
  // A call that passes fewer arguments than the helper returns from: no node to stand for its answer.
  const answer = param >= 0 ? passed : ret.argument;
  if (!answer || !cut.host.reachesFrom(d!.module, check) || !cut.reachesHost(e.callee.name)) return null;
  cut.dropped.push({ name: e.callee.name, at: cut.at(e) });
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
