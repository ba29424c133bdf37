/**
 * A lookup that always finds what it looks for: `lookup(list, x.name)` with `x` an element of `list`, where the
 * lookup returns an element found by its `name` — by `find` with a test that holds of an element for its own
 * name, or from an index that sets every element's name — and `list` holds objects the module makes itself
 * (reachability.ts then knows the result is never missing, so a guard on a missing one never runs).
 *
 *   function byName(list, key) {
 *     let index = indexes.get(list);                 // indexes: a WeakMap set only with (list, indexOf(list))
 *     if (index) return index.get(key);
 *     return list.find((t) => t.name === key || t.aliases?.includes(key));
 *   }
 *   let tools = [...given.map((t) => ({ name: t.name, run: () => 1 }))];
 *   for (let tool of tools.filter(…)) if (!byName(tools, tool.name)) … // never runs
 *
 * Sound, not complete. Every shape is checked where it is made:
 * - the lookup's every `return` gives `list.find(test)` (the test `t.name === key`, or it `|| …`, directly or in a
 *   helper), `index.get(key)` of an index built from `list` by a builder that sets every element's name to an
 *   element, or such an index from a cache set only with one; any other `return` lies in code the values known
 *   decide against (a rename branch no call takes);
 * - the key is the name of an element of the list, at every call (through parameters: every call passes one): the
 *   element of a list the call's list holds — the same, one of its `filter`s or `slice`s, one spread into it, or
 *   one kept by a `Promise.all` of a `map` whose callback gives its element or null, with the nulls filtered out;
 * - the list's elements are object literals the module makes from the contract's lists (the contract's types hold:
 *   its lists are arrays of tools, a tool's `name` a string), with the name a string, so never NaN nor missing;
 * - no list on the way is ever changed: each is only read, iterated, spread, used as a WeakMap key, or handed to a
 *   parameter (of the module's own functions, its class's methods, an element's method) that is only read itself;
 *   and no code writes a property by that name, or any by a computed key.
 */
import type { Variable } from "eslint-scope";
import { walk } from "estree-walker";
import { isFunction, memberName, type FunctionNode, type Node, type NodeOf } from "../ast/pattern.js";
import { CALLED_BY_NAME } from "./dead-methods.js";
import { truthOf, type Value } from "./known-values.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** What the proof reads of the module (Reachability provides it). */
export interface LookupContext {
  variable(id: Node): Variable | undefined;
  parent(n: Node): Node | undefined;
  code(n: Node): string;
  value(n: Node): Value | null;
  /** The reads of a property by name, or null when a computed read could name any (property-reads.ts). */
  reads(name: string): Node[] | null;
}

/** Fields of a contract tool that its types make strings (docs/scorer-module-contract.md). */
const CONTRACT_STRINGS = new Set(["name", "description", "searchHint"]);
/** Methods of an array that call back with each element, first parameter the element. */
const VISITORS = new Set(["map", "flatMap", "filter", "forEach", "some", "every", "find", "findIndex", "findLast", "findLastIndex"]);
/** What may be done with a list without changing it. */
const LIST_READS = new Set([...VISITORS, "length", "includes", "indexOf", "lastIndexOf", "slice", "join", "at", "concat"]);
/** Methods of a WeakMap or WeakSet that take a key and change nothing in it. */
const KEY_METHODS = new Set(["get", "has", "set", "add", "delete"]);
const MAX_DEPTH = 10;

type Call = NodeOf<"CallExpression">;
/** The arguments of one call of a function (a conditional spread of array literals gives one list per arm). */
type Args = Array<Node | undefined>;

/** Why `call`, a lookup by the name of an element of its list, always finds one; null when that is not known. */
export function ownElementLookup(c: LookupContext, call: Call): string | null {
  if (call.callee.type !== "Identifier" || call.optional || call.arguments.length < 2) return null;
  const fn = namedFunction(c, call.callee);
  const found = fn && lookupFinds(c, fn);
  if (!found) return null;
  const [list, key] = call.arguments as [Node, Node];
  const lists = new Set<Variable>();
  const s = new Proof(c, found.property, lists);
  if (!s.ownKey(key, list, 0) || !s.madeBy(list, 0)) return null;
  if (!s.unwritten() || ![...lists].every((v) => s.onlyRead(v, 0))) return null;
  const name = (call.callee as { name: string }).name;
  const or = (xs: string[]) => xs.join(" or ");
  const via = s.callers.length ? `every call of ${or(s.callers)} passes ` : "it is given ";
  return (
    `\`${name}\` is only asked for the \`${found.property}\` of an element of the list it searches (${via}${or(s.keys)}, of an ` +
    `element of ${or(s.over)}, which that list holds), and finds every element by it (${found.how}); the elements are ` +
    `objects the module makes, and nothing changes a list or a \`${found.property}\` on the way`
  );
}

/** The function a name is bound to once, never written. */
function namedFunction(c: LookupContext, id: Node): FunctionNode | null {
  const v = c.variable(id);
  const def = v?.defs[0];
  if (!v || v.defs.length !== 1 || written(v)) return null;
  const n = fromEstree(def!.node);
  const fn =
    def!.type === "FunctionName" ? n : def!.type === "Variable" && n.type === "VariableDeclarator" ? (n.init as Node | null) : null;
  return fn && isFunction(fn) ? fn : null;
}

function written(v: Variable): boolean {
  return v.references.some((r) => r.isWrite() && !r.init);
}

function paramVar(c: LookupContext, fn: FunctionNode, i: number): Variable | undefined {
  const p = fn.params[i] as Node | undefined;
  return p?.type === "Identifier" ? c.variable(p) : undefined;
}

/**
 * Whether `fn(list, key)` returns an element of `list` whose property (the same for every return) equals `key`
 * whenever some element's does: every return is a shape that finds one, or lies where the values known say it
 * cannot run; the last statement returns.
 */
function lookupFinds(c: LookupContext, fn: FunctionNode): { property: string; how: string } | null {
  const [vl, vk] = [paramVar(c, fn, 0), paramVar(c, fn, 1)];
  const body = fn.body as Node;
  if (fn.async || fn.generator || !vl || !vk || written(vl) || written(vk)) return null;
  if (body.type !== "BlockStatement" || body.body.at(-1)?.type !== "ReturnStatement") return null;
  const returns: Array<NodeOf<"ReturnStatement">> = [];
  walk(toEstree(body), {
    enter(raw) {
      const n = fromEstree(raw);
      if (isFunction(n)) this.skip();
      else if (n.type === "ReturnStatement") returns.push(n);
    },
  });
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
function decidedAgainst(c: LookupContext, n: Node, fn: Node): boolean {
  for (let x = n, p = c.parent(n); p && p !== fn; x = p, p = c.parent(p)) {
    if (p.type !== "IfStatement" || x === p.test) continue;
    const t = c.value(p.test);
    if (t && truthOf(t) !== (x === p.consequent)) return true;
  }
  return false;
}

/** What a returned expression finds: `list.find(test)`, `index.get(key)`, `cached.get(key)`. */
function finds(c: LookupContext, e: Node, list: Variable, key: Variable): { property: string; how: string } | null {
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

/** The binding's initialiser when it is declared once with one and never written (no loop head). */
function constInit(c: LookupContext, v: Variable): Node | null {
  const def = v.defs[0];
  if (v.defs.length !== 1 || def?.type !== "Variable" || written(v)) return null;
  const decl = fromEstree(def.node);
  const head = c.parent(c.parent(decl) ?? decl);
  if (decl.type !== "VariableDeclarator" || decl.id !== fromEstree(def.name) || /^For(In|Of)Statement$/.test(head?.type ?? "")) return null;
  return (decl.init as Node | null) ?? null;
}

/**
 * An index read only by `get`/`has`, tested, or (when `stored`) put by `set` into a cache of indexes whose every
 * use is known (cacheOfIndexes): nothing else can change it.
 */
function indexUse(c: LookupContext, id: Node, stored = true): boolean {
  const p = c.parent(id);
  if (p?.type === "MemberExpression" && p.object === id)
    return ["get", "has"].includes(memberName(p) ?? "") && c.parent(p)?.type === "CallExpression";
  if (p?.type === "IfStatement" && p.test === id) return true;
  if (!stored || p?.type !== "CallExpression" || p.arguments[1] !== id || p.callee.type !== "MemberExpression") return false;
  const cache = p.callee.object as Node;
  return memberName(p.callee) === "set" && cache.type === "Identifier" && cacheOfIndexes(c, cache) !== null;
}

/** The property of `t` a test `(t) => t.P === key [|| …]` (or a helper called so) compares with the key. */
function nameTest(c: LookupContext, cb: Node, key: Variable): string | null {
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
function returnedExpression(fn: FunctionNode): Node | null {
  const b = fn.body as Node;
  if (b.type !== "BlockStatement") return b;
  const [s] = b.body as Node[];
  return b.body.length === 1 && s?.type === "ReturnStatement" ? ((s.argument as Node | null) ?? null) : null;
}

/** `t.P === key`, or it `|| …`: the property P, when `t` and `key` are the given bindings. */
function equalsKey(c: LookupContext, e: Node, t: Variable, key: Variable): string | null {
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
function builder(c: LookupContext, callee: Node): string | null {
  const fn = namedFunction(c, callee);
  const body = fn?.body as Node | undefined;
  if (!fn || fn.params.length !== 1 || body?.type !== "BlockStatement" || body.body.length !== 3) return null;
  const [decl, loop, ret] = body.body as [Node, Node, Node];
  if (decl.type !== "VariableDeclaration" || decl.declarations.length !== 1) return null;
  const d = decl.declarations[0]!;
  const init = d.init as Node | null | undefined;
  if (d.id.type !== "Identifier" || init?.type !== "NewExpression" || init.arguments.length > 0) return null;
  if (init.callee.type !== "Identifier" || init.callee.name !== "Map" || c.variable(init.callee)) return null;
  if (ret.type !== "ReturnStatement" || ret.argument?.type !== "Identifier" || ret.argument.name !== d.id.name) return null;
  if (loop.type !== "ForOfStatement" || loop.await || loop.right.type !== "Identifier" || c.variable(loop.right) !== paramVar(c, fn, 0))
    return null;
  const left = loop.left as Node;
  const t = left.type === "VariableDeclaration" && left.kind !== "var" ? left.declarations[0]?.id : undefined;
  const [vm, vt] = [c.variable(d.id), t?.type === "Identifier" ? c.variable(t) : undefined];
  if (!vm || !vt || written(vm) || written(vt)) return null;
  // Every use of the map in the loop: `m.has(…)`, or `m.set(…, t)`.
  const uses = vm.references.filter((r) => !r.init).map((r) => fromEstree(r.identifier));
  const ok = uses.every((u) => {
    if (u === ret.argument) return true;
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
function setsOwn(c: LookupContext, s: Node, m: Variable, t: Variable): string | null {
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
function mapCallKey(c: LookupContext, e: Node, m: Variable, method: string, t: Variable): string | null {
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
function cacheOfIndexes(c: LookupContext, cache: Node): string | null {
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

/** The relations the proof walks, and the lists it met on the way (each must be only read). */
class Proof {
  /** What the reason names: the functions passing the key on, the keys, the lists their elements come from. */
  readonly callers: string[] = [];
  readonly keys: string[] = [];
  readonly over: string[] = [];
  constructor(
    private readonly c: LookupContext,
    private readonly property: string,
    private readonly lists: Set<Variable>,
  ) {}

  /** Whether `key`, wherever it runs with `list`, is the property of an element `list` holds. */
  ownKey(key: Node, list: Node, depth: number): boolean {
    const c = this.c;
    if (depth > MAX_DEPTH) return false;
    if (list.type === "Identifier" && c.variable(list)) this.lists.add(c.variable(list)!);
    // Both parameters of one function: so at every call.
    const shared = sharedFunction(c, key, list);
    if (shared) {
      const calls = callsOf(c, shared.fn);
      if (!calls || calls.length === 0) return false;
      this.note(this.callers, `\`${functionName(c, shared.fn)}\``);
      return calls.every((args) => {
        const [k, l] = [args[shared.i], args[shared.j]];
        return !!k && !!l && this.ownKey(k, l, depth + 1);
      });
    }
    if (key.type !== "MemberExpression" || key.optional || memberName(key) !== this.property || key.object.type !== "Identifier")
      return false;
    const x = c.variable(key.object);
    const over = x && visited(c, x);
    if (!over || !this.within(over, list, depth + 1)) return false;
    this.note(this.keys, `\`${c.code(key)}\``);
    this.note(this.over, `\`${c.code(over)}\``);
    return true;
  }

  /** Whether every element `xs` holds (when read) is one `list` holds. */
  within(xs: Node, list: Node, depth: number): boolean {
    const c = this.c;
    if (depth > MAX_DEPTH) return false;
    for (const n of [xs, list]) if (n.type === "Identifier" && c.variable(n)) this.lists.add(c.variable(n)!);
    const shared = sharedFunction(c, xs, list);
    if (shared) {
      const calls = callsOf(c, shared.fn);
      return (
        !!calls &&
        calls.length > 0 &&
        calls.every((args) => !!args[shared.i] && !!args[shared.j] && this.within(args[shared.i]!, args[shared.j]!, depth + 1))
      );
    }
    if (xs.type === "Identifier" && list.type === "Identifier" && c.variable(xs) && c.variable(xs) === c.variable(list)) return true;
    // The list: an array that spreads `xs`'s list, a binding made once, a fallback after a value always null.
    if (list.type === "ArrayExpression" && list.elements.some((e) => e?.type === "SpreadElement" && this.within(xs, e.argument, depth + 1)))
      return true;
    const init = list.type === "Identifier" && c.variable(list) ? constInit(c, c.variable(list)!) : null;
    if (init && this.within(xs, init, depth + 1)) return true;
    if (list.type === "LogicalExpression" && list.operator === "??") {
      const l = c.value(list.left);
      if (l?.kind === "const" && l.value == null && this.within(xs, list.right, depth + 1)) return true;
    }
    // `xs`: bound to values each of which the list holds, or a part of a list it holds.
    if (xs.type === "Identifier") {
      const values = assigned(c, xs);
      return !!values && values.every((v) => this.within(v, list, depth + 1));
    }
    const part = subsetOf(c, xs);
    return !!part && this.within(part, list, depth + 1);
  }

  /** Whether every element of `list` is an object literal of the module's with a string as the property. */
  madeBy(list: Node, depth: number): boolean {
    const c = this.c;
    if (depth > MAX_DEPTH) return false;
    if (list.type === "ArrayExpression")
      return list.elements.every((e) =>
        e?.type === "SpreadElement" ? this.madeBy(e.argument, depth + 1) : e?.type === "ObjectExpression" && this.literal(e, null),
      );
    if (list.type === "LogicalExpression" && list.operator === "??") {
      const l = c.value(list.left);
      return !!l && l.kind === "const" && l.value == null && this.madeBy(list.right, depth + 1);
    }
    if (list.type === "Identifier") {
      const v = c.variable(list);
      if (v) this.lists.add(v);
      const values = v && v.defs[0]?.type === "Parameter" ? parameterValues(c, list) : assigned(c, list);
      return !!values && values.every((x) => x !== undefined && this.madeBy(x, depth + 1));
    }
    const part = subsetOf(c, list);
    if (part) return this.madeBy(part, depth + 1);
    // `given.map(make)` over a list of the contract's: each element what `make` returns.
    if (list.type !== "CallExpression" || list.callee.type !== "MemberExpression" || memberName(list.callee) !== "map") return false;
    const make = list.arguments[0] as Node | undefined;
    const fn = make?.type === "Identifier" ? namedFunction(c, make) : make && isFunction(make) ? make : null;
    if (list.arguments.length !== 1 || !fn || fn.async || fn.generator || !contractList(c, list.callee.object)) return false;
    const made = literalsReturned(c, fn);
    return !!made && made.every((o) => this.literal(o, paramVar(c, fn, 0) ?? null));
  }

  /** An object literal whose property is a string: a literal one, or a contract string field of the tool `from`. */
  private literal(o: NodeOf<"ObjectExpression">, from: Variable | null): boolean {
    if (o.properties.some((p) => p.type !== "Property" || p.computed || p.kind !== "init")) return false;
    const own = o.properties.filter(
      (p) => p.type === "Property" && (p.key.type === "Identifier" ? p.key.name : (p.key as { value?: unknown }).value) === this.property,
    );
    const [p] = own;
    const v = own.length === 1 && p?.type === "Property" ? (p.value as Node) : null;
    if (v?.type === "Literal") return typeof v.value === "string";
    return (
      !!from &&
      !written(from) &&
      CONTRACT_STRINGS.has(this.property) &&
      v?.type === "MemberExpression" &&
      !v.computed &&
      memberName(v) === this.property &&
      v.object.type === "Identifier" &&
      this.c.variable(v.object) === from
    );
  }

  /** No code writes the property, or any by a computed key, or copies properties over an object. */
  unwritten(): boolean {
    const c = this.c;
    for (const m of ["assign", "defineProperty", "defineProperties", "setPrototypeOf", "__proto__"])
      if (c.reads(m)?.length !== 0) return false;
    const reads = c.reads(this.property);
    // A string of the name could be a key handed to code that writes it.
    return !!reads && reads.every((r) => r.type !== "Literal" && !isWriteTarget(c, r));
  }

  /**
   * Whether a list binding is only read: iterated, spread, measured, visited, a WeakMap key, tested, or handed to a
   * parameter (of a function or method of the module's) that is only read itself, or in an object literal to one
   * that takes it apart, or to a function that takes no parameters.
   */
  onlyRead(v: Variable, depth: number, seen = new Set<Variable>()): boolean {
    if (seen.has(v)) return true;
    seen.add(v);
    if (depth > MAX_DEPTH) return false;
    // Bound again with `=` (each value's list is checked where it is met), else read.
    return v.references.every((r) => r.init || (r.isWrite() ? rebound(this.c, r) : this.readAt(fromEstree(r.identifier), depth, seen)));
  }

  private readAt(id: Node, depth: number, seen: Set<Variable>): boolean {
    const c = this.c;
    let at = id;
    let p = c.parent(at);
    // Through a fallback or a choice: the value goes on unchanged.
    while (p?.type === "LogicalExpression" || (p?.type === "ConditionalExpression" && p.test !== at)) {
      at = p;
      p = c.parent(at);
    }
    if (p?.type === "MemberExpression" && p.object === at && !p.computed) {
      const name = memberName(p) ?? "";
      const use = c.parent(p);
      if (name === "length") return !isWriteTarget(c, p);
      if (!LIST_READS.has(name) || use?.type !== "CallExpression" || use.callee !== p) return false;
      return !VISITORS.has(name) || this.visitorSeesNoList(use.arguments[0]);
    }
    if ((p?.type === "SpreadElement" && c.parent(p)?.type === "ArrayExpression") || (p?.type === "ForOfStatement" && p.right === at))
      return true;
    if ((p?.type === "IfStatement" || p?.type === "ConditionalExpression") && p.test === at) return true;
    if (p?.type === "VariableDeclarator" && p.init === at && p.id.type === "Identifier") {
      const w = c.variable(p.id);
      return !!w && this.onlyRead(w, depth + 1, seen);
    }
    if (p?.type === "Property" && p.value === at && !p.computed) return this.inObject(p, depth, seen);
    if (p?.type === "CallExpression" && p.callee !== at) return this.handed(p, p.arguments.indexOf(at as never), [], depth, seen);
    return false;
  }

  /** A list as property `key` of an object literal (itself maybe nested): where the object goes. */
  private inObject(prop: NodeOf<"Property">, depth: number, seen: Set<Variable>): boolean {
    const c = this.c;
    const path: string[] = [];
    let x: Node = prop;
    for (;;) {
      if (x.type !== "Property" || x.computed || x.kind !== "init") return false;
      path.unshift(x.key.type === "Identifier" ? x.key.name : String((x.key as { value?: unknown }).value));
      const o = c.parent(x);
      const up = o && c.parent(o);
      if (o?.type !== "ObjectExpression" || !up) return false;
      if (up.type === "Property") x = up;
      else if (up.type === "CallExpression" && up.callee !== o) return this.handed(up, up.arguments.indexOf(o), path, depth, seen);
      else return false;
    }
  }

  /** A list handed to argument `i` of `call` (at `path` inside an object literal there): every function it may call reads it only. */
  private handed(call: Call, i: number, path: string[], depth: number, seen: Set<Variable>): boolean {
    const c = this.c;
    if (i < 0 || call.arguments.slice(0, i).some((a) => a.type === "SpreadElement")) return false;
    const callee = call.callee as Node;
    // A key of a WeakMap or WeakSet the module makes: not changed, and never handed out again.
    if (callee.type === "MemberExpression" && callee.object.type === "Identifier" && i === 0 && path.length === 0) {
      const cv = c.variable(callee.object);
      const init = cv && constInit(c, cv);
      if (
        init?.type === "NewExpression" &&
        init.callee.type === "Identifier" &&
        ["WeakMap", "WeakSet"].includes(init.callee.name) &&
        !c.variable(init.callee) &&
        KEY_METHODS.has(memberName(callee) ?? "")
      )
        return true;
    }
    const fns = calleeFunctions(c, call, this);
    return !!fns && fns.every((fn) => this.paramReads(fn, i, path, depth, seen));
  }

  /** Whether `fn`'s parameter `i` (its part at `path`) is only read, or never bound at all. */
  private paramReads(fn: FunctionNode, i: number, path: string[], depth: number, seen: Set<Variable>): boolean {
    const c = this.c;
    const p = fn.params[i] as Node | undefined;
    if (!p) return fn.type === "ArrowFunctionExpression" || !usesArguments(fn);
    if (p.type === "RestElement") return false;
    let target: Node | undefined = p.type === "AssignmentPattern" ? p.left : p;
    for (const key of path) {
      // Taken whole, the object could hand the list on: only a pattern that takes it apart is followed.
      if (target?.type !== "ObjectPattern") return false;
      if (target.properties.some((q) => q.type === "RestElement" || q.computed)) return false;
      const q = target.properties.find((q) => q.type === "Property" && q.key.type === "Identifier" && q.key.name === key);
      if (!q) return true;
      const value = (q as NodeOf<"Property">).value as Node;
      target = value.type === "AssignmentPattern" ? value.left : value;
    }
    if (target?.type !== "Identifier") return false;
    const v = c.variable(target);
    return !!v && this.onlyRead(v, depth + 1, seen);
  }

  /** A callback of a visiting method is given the list as its third argument: it must take at most two. */
  private visitorSeesNoList(cb: Node | undefined): boolean {
    const c = this.c;
    if (!cb) return true;
    let fns: Array<FunctionNode | undefined>;
    if (isFunction(cb)) fns = [cb];
    else if (cb.type !== "Identifier") return false;
    else {
      const named = namedFunction(c, cb);
      const given = named ? null : c.variable(cb)?.defs[0]?.type === "Parameter" ? parameterValues(c, cb) : null;
      if (!named && !given) return false;
      fns = named ? [named] : given!.map((g) => (g === undefined ? undefined : isFunction(g) ? g : undefined));
      if (!named && given!.some((g) => g !== undefined && !isFunction(g))) return false;
    }
    return fns.every(
      (f) =>
        !f ||
        (f.params.length <= 2 &&
          !f.params.some((q) => q.type === "RestElement") &&
          (f.type === "ArrowFunctionExpression" || !usesArguments(f))),
    );
  }

  private note(into: string[], s: string): void {
    if (!into.includes(s)) into.push(s);
  }
}

/** Whether a property read `m` is written instead: assigned, updated, deleted, or a target of a pattern or a loop. */
function isWriteTarget(c: LookupContext, m: Node): boolean {
  const p = c.parent(m);
  return (
    (p?.type === "AssignmentExpression" && p.left === m) ||
    p?.type === "UpdateExpression" ||
    (p?.type === "UnaryExpression" && p.operator === "delete") ||
    p?.type === "ArrayPattern" ||
    p?.type === "RestElement" ||
    (p?.type === "AssignmentPattern" && p.left === m) ||
    (p?.type === "Property" && p.value === m && c.parent(p)?.type === "ObjectPattern") ||
    ((p?.type === "ForOfStatement" || p?.type === "ForInStatement") && p.left === m)
  );
}

/** A write of a binding that is a plain `x = …`. */
function rebound(c: LookupContext, r: Variable["references"][number]): boolean {
  const id = fromEstree(r.identifier);
  const a = c.parent(id);
  return a?.type === "AssignmentExpression" && a.operator === "=" && a.left === id;
}

function usesArguments(fn: FunctionNode): boolean {
  let found = false;
  walk(toEstree(fn.body), {
    enter(raw) {
      const n = fromEstree(raw);
      if (n.type === "FunctionDeclaration" || n.type === "FunctionExpression") this.skip();
      else if (n.type === "Identifier" && n.name === "arguments") found = true;
    },
  });
  return found;
}

function functionName(c: LookupContext, fn: FunctionNode): string {
  if (fn.type !== "ArrowFunctionExpression" && fn.id) return fn.id.name;
  const p = c.parent(fn);
  if (p?.type === "VariableDeclarator" && p.id.type === "Identifier") return p.id.name;
  if (p?.type === "MethodDefinition" && p.key.type === "Identifier") return p.key.name;
  return "it";
}

/** When `a` and `b` are plain parameters of one function: it, and their positions. */
function sharedFunction(c: LookupContext, a: Node, b: Node): { fn: FunctionNode; i: number; j: number } | null {
  if (a.type !== "Identifier" || b.type !== "Identifier") return null;
  const [va, vb] = [c.variable(a), c.variable(b)];
  const [da, db] = [va?.defs[0], vb?.defs[0]];
  if (!va || !vb || da?.type !== "Parameter" || db?.type !== "Parameter" || da.node !== db.node || written(va) || written(vb)) return null;
  const fn = fromEstree(da.node) as FunctionNode;
  const [i, j] = [fn.params.indexOf(fromEstree(da.name) as never), fn.params.indexOf(fromEstree(db.name) as never)];
  return i >= 0 && j >= 0 && i !== j ? { fn, i, j } : null;
}

/** The list whose elements a callback's first parameter `x` visits: `xs.map((x) => …)`. */
function visited(c: LookupContext, x: Variable): Node | null {
  const def = x.defs[0];
  if (x.defs.length !== 1 || def?.type !== "Parameter" || written(x)) return null;
  const fn = fromEstree(def.node) as FunctionNode;
  const call = c.parent(fn);
  // A function expression with a name of its own may call itself with anything.
  if (fn.type === "FunctionExpression" && fn.id) return null;
  if (fn.params[0] !== (fromEstree(def.name) as never) || call?.type !== "CallExpression" || call.arguments[0] !== (fn as never))
    return null;
  const callee = call.callee as Node;
  if (callee.type !== "MemberExpression" || callee.optional || !VISITORS.has(memberName(callee) ?? "")) return null;
  return callee.object;
}

/**
 * The list whose elements `e` holds some of: `xs.filter(…)`, `xs.slice(…)`, or
 * `(await Promise.all(xs.map(async (x) => … ? x : null))).filter((r) => r !== null)`.
 */
function subsetOf(c: LookupContext, e: Node): Node | null {
  if (e.type !== "CallExpression" || e.optional || e.callee.type !== "MemberExpression" || e.callee.optional) return null;
  const method = memberName(e.callee);
  const from = e.callee.object as Node;
  if (method === "slice") return from;
  if (method !== "filter") return null;
  if (from.type !== "AwaitExpression") return from;
  // The awaited `Promise.all` of a map whose callback gives its element or null, nulls filtered out.
  const all = from.argument as Node;
  if (!dropsNull(c, e.arguments[0]) || all.type !== "CallExpression" || all.arguments.length !== 1) return null;
  const pc = all.callee as Node;
  if (
    pc.type !== "MemberExpression" ||
    memberName(pc) !== "all" ||
    pc.object.type !== "Identifier" ||
    pc.object.name !== "Promise" ||
    c.variable(pc.object)
  )
    return null;
  const mapped = all.arguments[0] as Node;
  if (mapped.type !== "CallExpression" || mapped.callee.type !== "MemberExpression" || memberName(mapped.callee) !== "map") return null;
  const cb = mapped.arguments[0] as Node | undefined;
  return cb && isFunction(cb) && !cb.generator && givesElementOrNull(c, cb) ? mapped.callee.object : null;
}

/** `(r) => r !== null`. */
function dropsNull(c: LookupContext, cb: Node | undefined): boolean {
  if (!cb || !isFunction(cb)) return false;
  const r = paramVar(c, cb, 0);
  const e = returnedExpression(cb);
  if (!r || e?.type !== "BinaryExpression" || e.operator !== "!==") return false;
  const [a, b] = [e.left as Node, e.right as Node];
  const isR = (n: Node) => n.type === "Identifier" && c.variable(n) === r;
  const isNull = (n: Node) => n.type === "Literal" && n.value === null;
  return (isR(a) && isNull(b)) || (isR(b) && isNull(a));
}

/** Whether every return of the callback gives its first parameter or null (`cond ? x : null`), and it ends in one. */
function givesElementOrNull(c: LookupContext, cb: FunctionNode): boolean {
  const x = paramVar(c, cb, 0);
  if (!x || written(x)) return false;
  const ok = (e: Node | null | undefined): boolean =>
    !!e &&
    ((e.type === "Identifier" && c.variable(e) === x) ||
      (e.type === "Literal" && e.value === null) ||
      (e.type === "ConditionalExpression" && ok(e.consequent) && ok(e.alternate)));
  const body = cb.body as Node;
  if (body.type !== "BlockStatement") return ok(body);
  const returns: Array<NodeOf<"ReturnStatement">> = [];
  walk(toEstree(body), {
    enter(raw) {
      const n = fromEstree(raw);
      if (isFunction(n)) this.skip();
      else if (n.type === "ReturnStatement") returns.push(n);
    },
  });
  return body.body.at(-1)?.type === "ReturnStatement" && returns.every((r) => ok(r.argument as Node | null));
}

/** The values a binding (not a parameter) takes: its initialiser and each `=` assigned to it. */
function assigned(c: LookupContext, id: Node): Node[] | null {
  const v = c.variable(id);
  const def = v?.defs[0];
  if (!v || v.defs.length !== 1 || def?.type !== "Variable") return null;
  const decl = fromEstree(def.node);
  const head = c.parent(c.parent(decl) ?? decl);
  if (
    decl.type !== "VariableDeclarator" ||
    decl.id !== fromEstree(def.name) ||
    !decl.init ||
    /^For(In|Of)Statement$/.test(head?.type ?? "")
  )
    return null;
  const values: Node[] = [decl.init];
  for (const r of v.references) {
    if (!r.isWrite() || r.init) continue;
    const a = c.parent(fromEstree(r.identifier));
    if (a?.type !== "AssignmentExpression" || a.operator !== "=" || a.left !== fromEstree(r.identifier)) return null;
    values.push(a.right);
  }
  return values;
}

/** What a parameter is given at every call (through an object pattern's keys; undefined where left out), or null when not known. */
function parameterValues(c: LookupContext, id: Node): Array<Node | undefined> | null {
  const v = c.variable(id);
  const def = v?.defs[0];
  if (!v || def?.type !== "Parameter" || written(v)) return null;
  const fn = fromEstree(def.node) as FunctionNode;
  const name = fromEstree(def.name);
  const i = fn.params.findIndex((p) => p.start <= name.start && name.end <= p.end);
  const path = i >= 0 ? keyPath(fn.params[i] as Node, name) : null;
  const calls = path ? callsOf(c, fn) : null;
  if (!calls) return null;
  // An argument (or a part of it) left out gives undefined; one that is not an object literal, nothing known.
  let known = true;
  const values = calls.map((args) => {
    let at = args[i];
    for (const key of path!) {
      if (at === undefined) return undefined;
      if (at.type !== "ObjectExpression" || at.properties.some((p) => p.type !== "Property" || p.computed || p.kind !== "init")) {
        known = false;
        return undefined;
      }
      const props = at.properties.filter(
        (p) => p.type === "Property" && (p.key.type === "Identifier" ? p.key.name : (p.key as { value?: unknown }).value) === key,
      );
      if (props.length > 1) known = false;
      at = (props[0] as NodeOf<"Property"> | undefined)?.value;
    }
    return at;
  });
  return known ? values : null;
}

/** The keys from an object pattern down to `name` (no defaults, no arrays); [] for the plain parameter. */
function keyPath(pattern: Node, name: Node): string[] | null {
  if (pattern === name) return [];
  if (pattern.type !== "ObjectPattern") return null;
  for (const p of pattern.properties) {
    if (p.type !== "Property" || p.computed || p.key.type !== "Identifier") continue;
    const inner = p.value as Node;
    if (!(inner.start <= name.start && name.end <= inner.end)) continue;
    const rest = keyPath(inner, name);
    return rest ? [p.key.name, ...rest] : null;
  }
  return null;
}

/** Whether `n` is one of the contract's lists: a parameter of an exported function, a property of one, or `that ?? []`. */
function contractList(c: LookupContext, n: Node): boolean {
  if (n.type === "LogicalExpression" && n.operator === "??")
    return contractList(c, n.left) && n.right.type === "ArrayExpression" && n.right.elements.length === 0;
  const id = n.type === "MemberExpression" && !n.computed ? (n.object as Node) : n;
  const v = id.type === "Identifier" ? c.variable(id) : undefined;
  const def = v?.defs[0];
  if (!v || def?.type !== "Parameter" || written(v)) return false;
  return exported(c, fromEstree(def.node) as FunctionNode);
}

/** Whether the module exports `fn` (its callers are then the contract's, outside the module). */
function exported(c: LookupContext, fn: FunctionNode): boolean {
  const holder = c.parent(fn);
  const id = fn.type === "FunctionDeclaration" ? fn.id : holder?.type === "VariableDeclarator" && holder.init === fn ? holder.id : null;
  const exports = new Set(["ExportSpecifier", "ExportNamedDeclaration", "ExportDefaultDeclaration"]);
  const v = id ? c.variable(id) : undefined;
  const declaration = holder?.type === "VariableDeclarator" ? c.parent(holder) : holder;
  return (
    exports.has(declaration?.type === "VariableDeclaration" ? (c.parent(declaration)?.type ?? "") : (declaration?.type ?? "")) ||
    !!v?.references.some((r) => exports.has(c.parent(fromEstree(r.identifier))?.type ?? ""))
  );
}

/** The object literals a function returns from every return (directly or by a binding made with one); it ends in one. */
function literalsReturned(c: LookupContext, fn: FunctionNode): Array<NodeOf<"ObjectExpression">> | null {
  const body = fn.body as Node;
  const values: Node[] = [];
  if (body.type !== "BlockStatement") values.push(body);
  else {
    if (body.body.at(-1)?.type !== "ReturnStatement") return null;
    walk(toEstree(body), {
      enter(raw) {
        const n = fromEstree(raw);
        if (isFunction(n)) this.skip();
        else if (n.type === "ReturnStatement") values.push((n.argument as Node | null) ?? n);
      },
    });
  }
  const out: Array<NodeOf<"ObjectExpression">> = [];
  for (let e of values) {
    if (e.type === "Identifier") {
      const v = c.variable(e);
      const init = v && constInit(c, v);
      if (!init) return null;
      e = init;
    }
    if (e.type !== "ObjectExpression") return null;
    out.push(e);
  }
  return out;
}

/**
 * Every call that may run `fn`, as argument lists: the calls of its name (never handed on otherwise), or of the
 * property an object literal gives it, or of its name as a class's method — every read of that property must be a
 * call, or a test; no code but the module's and the engine's runs (the contract's tools are data), and the engine
 * calls no such name. Null for an exported function (the contract's callers are not the module's) or when unknown.
 */
export function callsOf(c: LookupContext, fn: FunctionNode): Args[] | null {
  if (exported(c, fn)) return null;
  const holder = c.parent(fn);
  const calls: Call[] = [];
  const viaProperty = (name: string): boolean => {
    const reads = c.reads(name);
    // The engine calls a few names itself (`then` of what is awaited, `toString`, …): not only the module's reads.
    if (!reads || CALLED_BY_NAME.has(name)) return false;
    for (const r of reads) {
      const p = c.parent(r);
      if (r.type === "MemberExpression" && p?.type === "CallExpression" && p.callee === r) calls.push(p);
      else if (!(r.type === "MemberExpression" && (p?.type === "ConditionalExpression" || p?.type === "IfStatement") && p.test === r))
        return false;
    }
    return true;
  };
  if (holder?.type === "MethodDefinition") {
    if (holder.static || holder.computed || holder.key.type !== "Identifier" || !viaProperty(holder.key.name)) return null;
  } else {
    const id = fn.type === "FunctionDeclaration" ? fn.id : holder?.type === "VariableDeclarator" && holder.init === fn ? holder.id : null;
    const v = id?.type === "Identifier" ? c.variable(id) : undefined;
    if (!v || v.defs.length !== 1 || written(v)) return null;
    for (const r of v.references) {
      if (r.init) continue;
      const u = fromEstree(r.identifier);
      const p = c.parent(u);
      if (p?.type === "CallExpression" && p.callee === u) calls.push(p);
      else if (p?.type === "Property" && p.value === u && !p.computed && c.parent(p)?.type === "ObjectExpression") {
        if (p.key.type !== "Identifier" || !viaProperty(p.key.name)) return null;
      } else return null;
    }
  }
  const out: Args[] = [];
  for (const call of calls) {
    const lists = argumentLists(call);
    if (!lists) return null;
    out.push(...lists);
  }
  return out;
}

/** A call's arguments, a conditional spread of array literals giving one list per arm. */
function argumentLists(call: Call): Args[] | null {
  let lists: Args[] = [[]];
  for (const a of call.arguments as Node[]) {
    if (a.type !== "SpreadElement") {
      lists = lists.map((l) => [...l, a]);
      continue;
    }
    const s = a.argument as Node;
    const arms = s.type === "ConditionalExpression" ? [s.consequent as Node, s.alternate as Node] : [s];
    if (!arms.every((x) => x.type === "ArrayExpression" && x.elements.every((e) => e && e.type !== "SpreadElement"))) return null;
    lists = lists.flatMap((l) => arms.map((x) => [...l, ...((x as NodeOf<"ArrayExpression">).elements as Node[])]));
  }
  return lists;
}

/**
 * The functions a call may run: a function bound to its name, or for `o.m(…)` the methods `o` may have — `o`
 * made by the module (a class's instance, an object literal a function returns, an element the lookup finds among
 * the module's literals) on every path. Null when one of them is not known.
 */
function calleeFunctions(c: LookupContext, call: Call, proof: Proof): FunctionNode[] | null {
  const callee = call.callee as Node;
  if (callee.type === "Identifier") {
    const fn = namedFunction(c, callee);
    return fn ? [fn] : null;
  }
  if (callee.type !== "MemberExpression" || callee.computed) return null;
  const m = memberName(callee);
  // No code gives an object another function by that name.
  const reads = m ? c.reads(m) : null;
  if (!m || !reads || reads.some((r) => r.type === "Literal" || isWriteTarget(c, r))) return null;
  return methodsOf(c, callee.object, m, proof, 0);
}

/** The functions `o.m` may be, from what `o` may hold; undefined holds none (reading from it throws). */
function methodsOf(c: LookupContext, o: Node, m: string, proof: Proof, depth: number): FunctionNode[] | null {
  if (depth > MAX_DEPTH) return null;
  if (o.type === "Identifier") {
    const v = c.variable(o);
    if (!v) return o.name === "undefined" ? [] : null;
    const values = v.defs[0]?.type === "Parameter" ? parameterValues(c, o) : assigned(c, o);
    if (!values) return null;
    const out: FunctionNode[] = [];
    for (const x of values) {
      if (x === undefined) continue;
      const fns = methodsOf(c, x, m, proof, depth + 1);
      if (!fns) return null;
      out.push(...fns);
    }
    return out;
  }
  // A class's instance: `new C()`, or the empty state's `get(C)`.
  const cls =
    o.type === "NewExpression"
      ? (o.callee as Node)
      : o.type === "CallExpression" &&
          o.callee.type === "MemberExpression" &&
          memberName(o.callee) === "get" &&
          o.arguments.length === 1 &&
          c.value(o.callee.object)?.kind === "empty"
        ? (o.arguments[0] as Node)
        : null;
  if (cls) return classMethod(c, cls, m);
  if (o.type !== "CallExpression" || o.optional) return null;
  // What a function returns: each return's object literal's own property, or a method of its instance.
  let makers: FunctionNode[] | null = null;
  if (o.callee.type === "Identifier") {
    const f = namedFunction(c, o.callee);
    makers = f ? [f] : null;
    // The lookup's own result: an element of the list, an object literal of the module's.
    const found = f && lookupFinds(c, f);
    if (found && o.arguments[0]) return elementMethods(c, o.arguments[0], m, proof);
  } else if (o.callee.type === "MemberExpression" && !o.callee.computed && memberName(o.callee))
    makers = methodsOf(c, o.callee.object, memberName(o.callee)!, proof, depth + 1);
  // An async or generator function gives a promise or an iterator, not what it returns.
  if (!makers || makers.some((f) => f.async || f.generator)) return null;
  const out: FunctionNode[] = [];
  for (const f of makers) {
    const body = f.body as Node;
    const returned = body.type === "BlockStatement" ? (body.body.at(-1)?.type === "ReturnStatement" ? returnsOf(body) : null) : [body];
    if (!returned) return null;
    for (const r of returned) {
      if (r.type === "ObjectExpression") {
        const fn = propertyFunction(c, r, m);
        if (!fn) return null;
        out.push(fn);
      } else {
        const fns = methodsOf(c, r, m, proof, depth + 1);
        if (!fns) return null;
        out.push(...fns);
      }
    }
  }
  return out;
}

function returnsOf(body: Node): Node[] | null {
  const out: Node[] = [];
  let bare = false;
  walk(toEstree(body), {
    enter(raw) {
      const n = fromEstree(raw);
      if (isFunction(n)) this.skip();
      else if (n.type === "ReturnStatement") {
        if (n.argument) out.push(n.argument);
        else bare = true;
      }
    },
  });
  return bare ? null : out;
}

/** The function an object literal gives property `m`: a function, or the name of one. */
function propertyFunction(c: LookupContext, o: NodeOf<"ObjectExpression">, m: string): FunctionNode | null {
  if (o.properties.some((p) => p.type !== "Property" || p.computed || p.kind !== "init")) return null;
  const own = o.properties.filter((p) => p.type === "Property" && p.key.type === "Identifier" && p.key.name === m);
  if (own.length !== 1) return null;
  const v = (own[0] as NodeOf<"Property">).value as Node;
  if (isFunction(v)) return v;
  return v.type === "Identifier" ? namedFunction(c, v) : null;
}

/** The method `m` of the class `cls` names (its own, the class extending nothing). */
function classMethod(c: LookupContext, cls: Node, m: string): FunctionNode[] | null {
  const v = cls.type === "Identifier" ? c.variable(cls) : undefined;
  const def = v?.defs[0];
  if (!v || v.defs.length !== 1 || written(v) || def?.type !== "ClassName") return null;
  const node = fromEstree(def.node);
  if ((node.type !== "ClassDeclaration" && node.type !== "ClassExpression") || node.superClass) return null;
  const members = node.body.body as Node[];
  const own = members.filter(
    (x) =>
      x.type === "MethodDefinition" && !x.static && !x.computed && x.kind === "method" && x.key.type === "Identifier" && x.key.name === m,
  );
  // A field by that name would hide the method on every instance; a constructor could return another object.
  if (members.some((x) => x.type === "MethodDefinition" && x.kind === "constructor")) return null;
  const field = members.some((x) => x.type === "PropertyDefinition" && (x.computed || (x.key.type === "Identifier" && x.key.name === m)));
  return own.length === 1 && !field ? [(own[0] as NodeOf<"MethodDefinition">).value] : null;
}

/** The method `m` of the elements of `list`: the module's object literals (made by `madeBy`), each giving one. */
function elementMethods(c: LookupContext, list: Node, m: string, proof: Proof): FunctionNode[] | null {
  const literals: Array<NodeOf<"ObjectExpression">> = [];
  if (!collectLiterals(c, list, literals, 0) || !proof.madeBy(list, 0)) return null;
  const reads = c.reads(m);
  if (!reads || reads.some((r) => r.type === "Literal" || isWriteTarget(c, r))) return null;
  const out: FunctionNode[] = [];
  for (const o of literals) {
    const fn = propertyFunction(c, o, m);
    if (!fn) return null;
    out.push(fn);
  }
  return out;
}

/** The object literals a list's elements are (the same walk as `madeBy`). */
function collectLiterals(c: LookupContext, list: Node, out: Array<NodeOf<"ObjectExpression">>, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (list.type === "ArrayExpression")
    return list.elements.every((e) =>
      e?.type === "SpreadElement"
        ? collectLiterals(c, e.argument as Node, out, depth + 1)
        : e?.type === "ObjectExpression" && !!out.push(e),
    );
  if (list.type === "LogicalExpression" && list.operator === "??") return collectLiterals(c, list.right, out, depth + 1);
  if (list.type === "Identifier") {
    const v = c.variable(list);
    const values = v && v.defs[0]?.type === "Parameter" ? parameterValues(c, list) : assigned(c, list);
    return !!values && values.every((x) => x !== undefined && collectLiterals(c, x, out, depth + 1));
  }
  const part = subsetOf(c, list);
  if (part) return collectLiterals(c, part, out, depth + 1);
  if (list.type !== "CallExpression" || list.callee.type !== "MemberExpression" || memberName(list.callee) !== "map") return false;
  const make = list.arguments[0] as Node | undefined;
  const fn = make?.type === "Identifier" ? namedFunction(c, make) : make && isFunction(make) ? make : null;
  const made = fn && literalsReturned(c, fn);
  if (!made) return false;
  out.push(...made);
  return true;
}
