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
 * It takes the contract at its word: its caller passes and gets data, so no code but the module's and the engine's
 * runs. The lookup's shapes are lookup-shapes.ts; how values go from call to call, call-flow.ts; what an object a
 * method is called on may be, receivers.ts.
 */
import type { Variable } from "eslint-scope";
import { isFunction, memberName, type FunctionNode, type Node, type NodeOf } from "../ast/pattern.js";
import {
  assigned,
  callsOf,
  constInit,
  functionName,
  isWriteTarget,
  MAX_DEPTH,
  namedFunction,
  parameterValues,
  paramVar,
  rebound,
  sharedFunction,
  usesArguments,
  VISITORS,
  written,
  type Call,
  type FlowContext,
} from "./call-flow.js";
import { lookupFinds } from "./lookup-shapes.js";
import { calleeFunctions, contractList, literalsReturned, subsetOf } from "./receivers.js";
import { fromEstree } from "../ast/estree-bridge.js";

export type LookupContext = FlowContext;

/** Fields of a contract tool that its types make strings (docs/scorer-module-contract.md). */
const CONTRACT_STRINGS = new Set(["name", "description", "searchHint"]);
/** What may be done with a list without changing it. */
const LIST_READS = new Set([...VISITORS, "length", "includes", "indexOf", "lastIndexOf", "slice", "join", "at", "concat"]);
/** Methods of a WeakMap or WeakSet that take a key and change nothing in it. */
const KEY_METHODS = new Set(["get", "has", "set", "add", "delete"]);

/** Why `call`, a lookup by the name of an element of its list, always finds one; null when that is not known. */
export function ownElementLookup(c: FlowContext, call: Call): string | null {
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

/** The relations the proof walks, and the lists it met on the way (each must be only read). */
class Proof {
  /** What the reason names: the functions passing the key on, the keys, the lists their elements come from. */
  readonly callers: string[] = [];
  readonly keys: string[] = [];
  readonly over: string[] = [];
  constructor(
    private readonly c: FlowContext,
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
    // The same binding, never bound again: the same list.
    const same = xs.type === "Identifier" && list.type === "Identifier" ? c.variable(xs) : undefined;
    if (same && same === c.variable(list) && !written(same)) return true;
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
    const fns = calleeFunctions(c, call, (l) => this.madeBy(l, 0));
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

/** The list whose elements a callback's first parameter `x` visits: `xs.map((x) => …)`. */
function visited(c: FlowContext, x: Variable): Node | null {
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
