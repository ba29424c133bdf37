/**
 * The shapes of a lookup that finds an element by its name (own-element-lookup.ts): every `return` gives
 * `list.find(test)` with a test that holds of an element for its own name, `index.get(key)` of an index a builder
 * makes with every element under its name, or such an index from a cache filled only with them; other returns lie
 * where the values known say they cannot run. An index is trusted only where nothing can change it.
 */
import type { Variable } from "eslint-scope";
import { isFunction, memberName, ownReturns, type FunctionNode, type Node } from "../ast/pattern.js";
import { constInit, namedFunction, paramVar, written, type FlowContext } from "./call-flow.js";
import { mapBuilderFrame } from "./code-shapes.js";
import { truthOf } from "./known-values.js";
import { fromEstree } from "../ast/estree-bridge.js";

/**
 * Whether `fn(list, key)` returns an element of `list` whose property (the same for every return) equals `key`
 * whenever some element's does: every return is a shape that finds one, or lies where the values known say it
 * cannot run; the last statement returns.
 */
export function lookupFinds(c: FlowContext, fn: FunctionNode): { property: string; how: string } | null {
  const [vl, vk] = [paramVar(c, fn, 0), paramVar(c, fn, 1)];
  const body = fn.body as Node;
  if (fn.async || fn.generator || !vl || !vk || written(vl) || written(vk)) return null;
  if (body.type !== "BlockStatement" || body.body.at(-1)?.type !== "ReturnStatement") return null;
  const returns = ownReturns(body);
  const found = new Map<string, string>();
  const hows: string[] = [];
  for (const r of returns) {
    if (decidedAgainst(c, r, fn)) continue;
    const f = r.argument ? finds(c, r.argument, vl, vk) : null;
    if (!f) return null;
    found.set(f.property, f.how);
    hows.push(f.how);
  }
  const [first] = [...found];
  return found.size === 1 && first ? { property: first[0], how: [...new Set(hows)].join(", ") } : null;
}

/** Whether `n` lies in an arm of an `if` (inside `fn`) whose test the values known decide against it. */
export function decidedAgainst(c: FlowContext, n: Node, fn: Node): boolean {
  for (let x = n, p = c.parent(n); p && p !== fn; x = p, p = c.parent(p)) {
    if (p.type !== "IfStatement" || x === p.test) continue;
    const t = c.value(p.test);
    if (t && truthOf(t) !== (x === p.consequent)) return true;
  }
  return false;
}

/** What a returned expression finds: `list.find(test)`, `index.get(key)`, `cached.get(key)`. */
export function finds(c: FlowContext, e: Node, list: Variable, key: Variable): { property: string; how: string } | null {
  if (e.type !== "CallExpression" || e.optional || e.callee.type !== "MemberExpression" || e.callee.optional) return null;
  const [obj, method, arg] = [e.callee.object as Node, memberName(e.callee), e.arguments[0] as Node | undefined];
  if (obj.type !== "Identifier" || e.arguments.length !== 1 || !arg) return null;
  if (method === "find" && c.variable(obj) === list) {
    const property = nameTest(c, arg, key);
    return property ? { property, how: "`find`" } : null;
  }
  if (method !== "get" || arg.type !== "Identifier" || c.variable(arg) !== key) return null;
  const index = c.variable(obj);
  const init = index && constInit(c, index);
  if (!init || init.type !== "CallExpression" || init.arguments.length !== 1) return null;
  const from = init.arguments[0] as Node;
  // `index = build(list)`, used only by `get` and to fill a cache.
  if (init.callee.type === "Identifier" && from.type === "Identifier" && c.variable(from) === list) {
    const property = builder(c, init.callee);
    if (!property || !index.references.every((r) => r.init || indexUse(c, fromEstree(r.identifier)))) return null;
    return { property, how: `an index \`${init.callee.name}\` makes of every element` };
  }
  // `cached = cache.get(list)`, a cache filled only with such indexes.
  const cache = init.callee.type === "MemberExpression" && memberName(init.callee) === "get" ? (init.callee.object as Node) : null;
  if (cache?.type !== "Identifier" || from.type !== "Identifier" || c.variable(from) !== list) return null;
  const property = cacheOfIndexes(c, cache);
  if (!property || !index.references.every((r) => r.init || indexUse(c, fromEstree(r.identifier)))) return null;
  return { property, how: `the index of the list \`${cache.name}\` keeps` };
}

/**
 * An index read only by `get`/`has`, tested, or (when `stored`) put by `set` into a cache of indexes whose every
 * use is known (cacheOfIndexes): nothing else can change it.
 */
export function indexUse(c: FlowContext, id: Node, stored = true): boolean {
  const p = c.parent(id);
  if (p?.type === "MemberExpression" && p.object === id)
    return ["get", "has"].includes(memberName(p) ?? "") && c.parent(p)?.type === "CallExpression";
  if (p?.type === "IfStatement" && p.test === id) return true;
  if (!stored || p?.type !== "CallExpression" || p.arguments[1] !== id || p.callee.type !== "MemberExpression") return false;
  const cache = p.callee.object as Node;
  return memberName(p.callee) === "set" && cache.type === "Identifier" && cacheOfIndexes(c, cache) !== null;
}

/** The property of `t` a test `(t) => t.P === key [|| …]` (or a helper called so) compares with the key. */
export function nameTest(c: FlowContext, cb: Node, key: Variable): string | null {
  if (!isFunction(cb) || cb.async || cb.generator) return null;
  const t = paramVar(c, cb, 0);
  const e = returnedExpression(cb);
  if (!t || written(t) || !e) return null;
  const direct = equalsKey(c, e, t, key);
  if (direct) return direct;
  // A helper called with the element and the key, whose own test is one.
  if (e.type !== "CallExpression" || e.callee.type !== "Identifier" || e.arguments.length !== 2) return null;
  const [a, b] = e.arguments as [Node, Node];
  const h = namedFunction(c, e.callee);
  if (!h || a.type !== "Identifier" || b.type !== "Identifier" || c.variable(a) !== t || c.variable(b) !== key) return null;
  const [ht, hk] = [paramVar(c, h, 0), paramVar(c, h, 1)];
  const he = returnedExpression(h);
  return ht && hk && he && !written(ht) && !written(hk) ? equalsKey(c, he, ht, hk) : null;
}

/** The one expression a function returns: its expression body, or a body of a single return. */
export function returnedExpression(fn: FunctionNode): Node | null {
  const b = fn.body as Node;
  if (b.type !== "BlockStatement") return b;
  const [s] = b.body as Node[];
  return b.body.length === 1 && s?.type === "ReturnStatement" ? ((s.argument as Node | null) ?? null) : null;
}

/** `t.P === key`, or it `|| …`: the property P, when `t` and `key` are the given bindings. */
export function equalsKey(c: FlowContext, e: Node, t: Variable, key: Variable): string | null {
  const x = e.type === "LogicalExpression" && e.operator === "||" ? (e.left as Node) : e;
  if (x.type !== "BinaryExpression" || x.operator !== "===") return null;
  const [l, r] = [x.left as Node, x.right as Node];
  for (const [m, k] of [
    [l, r],
    [r, l],
  ] as const)
    if (
      m.type === "MemberExpression" &&
      !m.optional &&
      m.object.type === "Identifier" &&
      c.variable(m.object) === t &&
      k.type === "Identifier" &&
      c.variable(k) === key
    )
      return memberName(m) ?? null;
  return null;
}

/**
 * The property a builder indexes by: `function (xs) { let m = new Map(); for (let t of xs) { … } return m; }`
 * where the loop's body sets `t.P` (outright or when `!m.has(t.P)`) as a statement of its own, and every `m.set`
 * in it stores `t` itself; `m` is only read by `has` and `set` in it.
 */
export function builder(c: FlowContext, callee: Node): string | null {
  const fn = namedFunction(c, callee);
  const frame = fn && mapBuilderFrame(fn, (id) => c.variable(id));
  if (!fn || !frame || c.variable(frame.list) !== paramVar(c, fn, 0)) return null;
  const { map, loop, returned } = frame;
  const left = loop.left as Node;
  const t = left.type === "VariableDeclaration" && left.kind !== "var" ? left.declarations[0]?.id : undefined;
  const [vm, vt] = [c.variable(map), t?.type === "Identifier" ? c.variable(t) : undefined];
  if (!vm || !vt || written(vm) || written(vt)) return null;
  // Every use of the map in the loop: `m.has(…)`, or `m.set(…, t)`.
  const uses = vm.references.filter((r) => !r.init).map((r) => fromEstree(r.identifier));
  const ok = uses.every((u) => {
    if (u === returned) return true;
    const m = c.parent(u);
    const call = m && c.parent(m);
    if (m?.type !== "MemberExpression" || call?.type !== "CallExpression" || call.callee !== m || u.start < loop.start || u.end > loop.end)
      return false;
    const method = memberName(m);
    if (method === "has") return call.arguments.length === 1;
    const v = call.arguments[1] as Node | undefined;
    return method === "set" && call.arguments.length === 2 && v?.type === "Identifier" && c.variable(v) === vt;
  });
  if (!ok) return null;
  const stmts = loop.body.type === "BlockStatement" ? (loop.body.body as Node[]) : [loop.body as Node];
  for (const s of stmts) {
    const p = setsOwn(c, s, vm, vt);
    if (p) return p;
  }
  return null;
}

/** `m.set(t.P, t)`, or `if (!m.has(t.P)) m.set(t.P, t)` without an else: the property P. */
export function setsOwn(c: FlowContext, s: Node, m: Variable, t: Variable): string | null {
  let x = s;
  let guard: string | null = null;
  if (x.type === "IfStatement" && !x.alternate) {
    const test = x.test as Node;
    if (test.type !== "UnaryExpression" || test.operator !== "!") return null;
    guard = mapCallKey(c, test.argument, m, "has", t);
    if (!guard) return null;
    x = x.consequent;
    if (x.type === "BlockStatement" && x.body.length === 1) x = x.body[0] as Node;
  }
  if (x.type !== "ExpressionStatement") return null;
  const p = mapCallKey(c, x.expression, m, "set", t);
  return p && (guard === null || guard === p) ? p : null;
}

/** For `m.method(t.P, …)`: P. */
export function mapCallKey(c: FlowContext, e: Node, m: Variable, method: string, t: Variable): string | null {
  if (e.type !== "CallExpression" || e.callee.type !== "MemberExpression" || memberName(e.callee) !== method) return null;
  const [o, k] = [e.callee.object as Node, e.arguments[0] as Node | undefined];
  if (o.type !== "Identifier" || c.variable(o) !== m || k?.type !== "MemberExpression" || k.object.type !== "Identifier") return null;
  return c.variable(k.object) === t ? (memberName(k) ?? null) : null;
}

/**
 * The property a cache of indexes keeps them by: a `new WeakMap()` (or Map) bound once, whose every use is a
 * `get`, a `has`, or `set(list, index)` with the index built from that very list (a parameter never written) by a
 * builder, just before.
 */
export function cacheOfIndexes(c: FlowContext, cache: Node): string | null {
  const v = c.variable(cache);
  const init = v && constInit(c, v);
  if (!v || init?.type !== "NewExpression" || init.arguments.length > 0 || init.callee.type !== "Identifier") return null;
  if (!["WeakMap", "Map"].includes(init.callee.name) || c.variable(init.callee)) return null;
  const props = new Set<string>();
  for (const r of v.references) {
    if (r.init) continue;
    const m = c.parent(fromEstree(r.identifier));
    const call = m && c.parent(m);
    if (m?.type !== "MemberExpression" || call?.type !== "CallExpression" || call.callee !== m) return null;
    const method = memberName(m);
    if (method === "has") continue;
    if (method === "get") {
      // What it gives is only read as an index, wherever it goes.
      const p = c.parent(call);
      const held = p?.type === "VariableDeclarator" && p.init === call && p.id.type === "Identifier" ? c.variable(p.id) : undefined;
      if (held ? held.references.every((u) => u.init || indexUse(c, fromEstree(u.identifier), false)) : indexUse(c, call, false)) continue;
      return null;
    }
    if (method !== "set" || call.arguments.length !== 2) return null;
    const [k, idx] = call.arguments as [Node, Node];
    const kv = k.type === "Identifier" ? c.variable(k) : undefined;
    const iv = idx.type === "Identifier" ? c.variable(idx) : undefined;
    const built = iv && constInit(c, iv);
    if (!kv || written(kv) || kv.defs[0]?.type !== "Parameter" || built?.type !== "CallExpression" || built.callee.type !== "Identifier")
      return null;
    const from = built.arguments[0] as Node | undefined;
    if (built.arguments.length !== 1 || from?.type !== "Identifier" || c.variable(from) !== kv) return null;
    const p = builder(c, built.callee);
    if (!p) return null;
    props.add(p);
  }
  return props.size === 1 ? [...props][0]! : null;
}
