/**
 * What the objects a lifted module calls methods on may be, for the own-element lookup proof (own-element-lookup.ts):
 * a class's instance, an object literal a function returns, an element a lookup finds among the module's object
 * literals; and the lists those elements come from — the contract's lists mapped to object literals, their parts.
 */
import { walk } from "estree-walker";
import { isFunction, memberName, ownReturns, type FunctionNode, type Node, type NodeOf } from "../ast/pattern.js";
import {
  assigned,
  classMethod,
  constInit,
  exported,
  isWriteTarget,
  MAX_DEPTH,
  namedFunction,
  parameterValues,
  paramVar,
  propertyFunction,
  returnsOf,
  written,
  type Call,
  type FlowContext,
} from "./call-flow.js";
import { lookupFinds, returnedExpression } from "./lookup-shapes.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** Whether every element of a list is an object literal of the module's (the proof's own check). */
export type MadeBy = (list: Node) => boolean;

/**
 * The functions a call may run: a function bound to its name, or for `o.m(…)` the methods `o` may have — `o`
 * made by the module (a class's instance, an object literal a function returns, an element the lookup finds among
 * the module's literals) on every path. Null when one of them is not known.
 */
export function calleeFunctions(c: FlowContext, call: Call, madeBy: MadeBy): FunctionNode[] | null {
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
  return methodsOf(c, callee.object, m, madeBy, 0);
}

/** The functions `o.m` may be, from what `o` may hold; undefined holds none (reading from it throws). */
export function methodsOf(c: FlowContext, o: Node, m: string, madeBy: MadeBy, depth: number): FunctionNode[] | null {
  if (depth > MAX_DEPTH) return null;
  if (o.type === "Identifier") {
    const v = c.variable(o);
    if (!v) return o.name === "undefined" ? [] : null;
    const values = v.defs[0]?.type === "Parameter" ? parameterValues(c, o) : assigned(c, o);
    if (!values) return null;
    const out: FunctionNode[] = [];
    for (const x of values) {
      if (x === undefined) continue;
      const fns = methodsOf(c, x, m, madeBy, depth + 1);
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
    if (found && o.arguments[0]) return elementMethods(c, o.arguments[0], m, madeBy);
  } else if (o.callee.type === "MemberExpression" && !o.callee.computed && memberName(o.callee))
    makers = methodsOf(c, o.callee.object, memberName(o.callee)!, madeBy, depth + 1);
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
        const fns = methodsOf(c, r, m, madeBy, depth + 1);
        if (!fns) return null;
        out.push(...fns);
      }
    }
  }
  return out;
}

/** The method `m` of the elements of `list`: the module's object literals (made by `madeBy`), each giving one. */
export function elementMethods(c: FlowContext, list: Node, m: string, madeBy: MadeBy): FunctionNode[] | null {
  const literals: Array<NodeOf<"ObjectExpression">> = [];
  if (!collectLiterals(c, list, literals, 0) || !madeBy(list)) return null;
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
export function collectLiterals(c: FlowContext, list: Node, out: Array<NodeOf<"ObjectExpression">>, depth: number): boolean {
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

/** The object literals a function returns from every return (directly or by a binding made with one); it ends in one. */
export function literalsReturned(c: FlowContext, fn: FunctionNode): Array<NodeOf<"ObjectExpression">> | null {
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

/** Whether `n` is one of the contract's lists: a parameter of an exported function, a property of one, or `that ?? []`. */
export function contractList(c: FlowContext, n: Node): boolean {
  if (n.type === "LogicalExpression" && n.operator === "??")
    return contractList(c, n.left) && n.right.type === "ArrayExpression" && n.right.elements.length === 0;
  const id = n.type === "MemberExpression" && !n.computed ? (n.object as Node) : n;
  const v = id.type === "Identifier" ? c.variable(id) : undefined;
  const def = v?.defs[0];
  if (!v || def?.type !== "Parameter" || written(v)) return false;
  return exported(c, fromEstree(def.node) as FunctionNode);
}

/**
 * The list whose elements `e` holds some of: `xs.filter(…)`, `xs.slice(…)`, or
 * `(await Promise.all(xs.map(async (x) => … ? x : null))).filter((r) => r !== null)`.
 */
export function subsetOf(c: FlowContext, e: Node): Node | null {
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
export function dropsNull(c: FlowContext, cb: Node | undefined): boolean {
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
export function givesElementOrNull(c: FlowContext, cb: FunctionNode): boolean {
  const x = paramVar(c, cb, 0);
  if (!x || written(x)) return false;
  const ok = (e: Node | null | undefined): boolean =>
    !!e &&
    ((e.type === "Identifier" && c.variable(e) === x) ||
      (e.type === "Literal" && e.value === null) ||
      (e.type === "ConditionalExpression" && ok(e.consequent) && ok(e.alternate)));
  const body = cb.body as Node;
  if (body.type !== "BlockStatement") return ok(body);
  return body.body.at(-1)?.type === "ReturnStatement" && ownReturns(body).every((r) => ok(r.argument as Node | null));
}
