/**
 * Cutting the host out of lifted code, for any routine: discarded calls to functions that reach the host
 * (logging, telemetry, cache bookkeeping) and in-place waits go, expressions and constants a port names are
 * replaced where they stand, branches a host check gates are cut (the neutral client's host says no), locals
 * whose unread value comes from the host go, and modules the code reads only through `?.` are absent.
 */
import type { Reference } from "eslint-scope";
import type { ModuleEntry } from "../extract/types.js";
import type { CallExpression, Expression, Identifier, VariableDeclarator } from "acorn";
import { fieldsOf, isNodeList, instantiate, isFunction, isNode, matchNode, memberName, someNode, walk, type Node } from "../ast/pattern.js";
import type { Port } from "../locate/signature.js";
import { freeReferences, portFor, Resolver, type Place } from "./closure.js";
import { analyzeFunction } from "./fold/fold-undefined.js";
import { rewriteTree } from "../ast/rewrite.js";
import { HostReach } from "./host-reach.js";
import { declaredNames, removeStatementsWhere } from "./prune.js";
import { fromEstree } from "../ast/estree-bridge.js";

/**
 * Remove `let x = hostCall(…)` declarators whose value is never read (by scope), until none is left.
 * The scopes are analysed once: a removal takes away the declarator's variable, and the scopes and
 * references inside it, and nothing else a new analysis would find (the variable had no reads, so
 * its writes, now resolved further out, read nothing either). Removed nodes are skipped instead.
 */
export function removeUnusedHostLocals(
  fn: Node,
  reachesHost: (e: Node) => boolean,
  dropped: Array<{ name: string; at: Place }>,
  at: (n: Node) => Place,
): void {
  const scopes = analyzeFunction(fn).scopes;
  const removed = new Set<Node>();
  const isRead = (r: Reference) => r.isRead() && !removed.has(fromEstree(r.identifier));
  for (let round = 0; round < 256; round++) {
    let target: VariableDeclarator | null = null;
    for (const scope of scopes) {
      for (const v of scope.variables) {
        const def = v.defs[0];
        if (v.defs.length !== 1 || def?.type !== "Variable") continue;
        const d = fromEstree(def.node) as VariableDeclarator;
        if (removed.has(d)) continue;
        if (d.id?.type !== "Identifier" || !d.init || v.references.some(isRead) || !reachesHost(d.init)) continue;
        target = d;
        break;
      }
      if (target) break;
    }
    if (!target) return;
    const d = target;
    walk(d, (n) => void removed.add(n));
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
export function hostGate(t: Node, hostFn: (name: string) => boolean): string | null {
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
export function optionalModules(fn: Node, module: ModuleEntry, resolver: Resolver): string[] {
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
export function replacePortedExpressions(root: Node, ports: Port[], replaced: (port: string, at: Node) => void): void {
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

/** Remove discarded host calls: whole expression statements, and discarded elements of sequences. */
export function cutEffects(root: Node, droppable: (e: Node) => boolean): void {
  const visit = (n: Node) => {
    if (!n || typeof n !== "object") return;
    const fields = fieldsOf(n);
    for (const key in fields) {
      const v = fields[key];
      if (isNodeList(v)) {
        for (let i = 0; i < v.length; i++) {
          const s = v[i];
          if (s?.type === "ExpressionStatement") {
            const kept = keepOf(s.expression, true, droppable);
            if (kept === null) {
              v.splice(i--, 1);
              continue;
            }
            s.expression = kept as Expression;
          }
          if (s) visit(s);
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
    return kept.length === 1 ? kept[0]! : { ...e, expressions: kept };
  }
  // `await sleep(…)` as a statement waits on the host and yields nothing: the same as a discarded call.
  if (discarded && e.type === "AwaitExpression" && droppable(e.argument)) return null;
  return discarded && droppable(e) ? null : e;
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
export function droppedByPort(e: Node, ports: Port[]): boolean {
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
