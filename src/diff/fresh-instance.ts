/**
 * A private field compared, in a method, with a value it cannot hold yet: the method runs once on each instance,
 * first, on a new one the empty state makes (`state.get(Cache)` of the adapter's `emptyState()` is `new Cache()`),
 * so the field still holds its initial value; and the other side of the comparison is always a string, which
 * that value is not (reachability.ts then knows the comparison's outcome).
 *
 *   class Cache {
 *     #key = null;
 *     refresh(list) {
 *       let key = list.map((t) => t.name).join(",");
 *       if (this.#key !== key) { … }                 // always true: `#key` is null here, `key` a string
 *     }
 *   }
 *   let cache = state.get(Cache);                    // state: the adapter's emptyState()
 *   cache.refresh(tools);                            // tools: an array
 *
 * Sound, not complete: every read of the method's name in the module must be such a call, `X.m(…)` as a statement
 * right in the block that declares `X = S.get(C)` (so each run makes a new instance, loop or not), with `X` never
 * written and used nowhere before, nor in the call's arguments; the class extends nothing and has no constructor,
 * its fields' initial values are constants or new empty collections; the method is neither async nor a generator,
 * the comparison is the test of an `if` at the top of its body, nothing before it names `this`, and the string
 * side is an array's `join` (or a string), the array known from the code: a literal, an array method's result on
 * one, a parameter every call gives one, or what the adapter passes call().
 */
import type { Variable } from "eslint-scope";
import { walk } from "estree-walker";
import { isFunction, memberName, type FunctionNode, type Node, type NodeOf } from "../ast/pattern.js";
import { objectOf } from "./adapter-facts.js";
import type { FlowContext } from "./call-flow.js";
import { CALLED_BY_NAME } from "./dead-methods.js";
import { patternPath } from "./code-shapes.js";
import type { Primitive, Value } from "./known-values.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** What the proof reads of the module (Reachability provides it). */
export interface FreshContext extends FlowContext {
  /** The adapter's arguments to call() after its input, when `fn` is call(). */
  adapterArgs(fn: FunctionNode): Node[] | null;
}

/** Array methods whose result, on an array, is an array. */
const TO_ARRAY = new Set(["filter", "map", "flatMap", "slice", "concat", "sort", "reverse", "toSorted", "toReversed"]);
/** Calls and parameters followed, at most. */
const MAX_DEPTH = 12;

type Method = NodeOf<"MethodDefinition">;
type Class = NodeOf<"ClassDeclaration" | "ClassExpression">;

/** The comparison's value on every run, with why, or null when not known. */
export function freshComparison(c: FreshContext, n: NodeOf<"BinaryExpression">): Value | null {
  if (!["===", "!==", "==", "!="].includes(n.operator)) return null;
  const leftField = privateField(n.left);
  const field = leftField ?? privateField(n.right);
  const other = (leftField ? n.right : n.left) as Node;
  if (!field || contains(other, "ThisExpression")) return null;
  const at = ownMethod(c, n);
  if (!at) return null;
  const initial = initialValue(at.cls, field);
  if (initial === NONE || typeof initial === "string") return null;
  if (n.operator.length === 2 && initial != null) return null;
  const made = freshCalls(c, at.cls, at.method);
  if (!made || !isString(c, other, made, 0)) return null;
  const cls = className(c, at.cls)!;
  const name = (at.method.key as { name: string }).name;
  const init = initial === undefined ? "undefined" : JSON.stringify(initial);
  return {
    kind: "const",
    value: n.operator.startsWith("!"),
    why:
      `\`${name}\` runs only as the first use of a new ${cls} (${made.map((m) => `\`${c.code(m.init)}\``).join(", ")}, of the ` +
      `empty state, makes one on each run), so \`#${field}\` still holds its initial ${init}, while \`${c.code(other)}\` is always a string`,
  };
}

function privateField(n: Node): string | null {
  return n.type === "MemberExpression" && n.object.type === "ThisExpression" && n.property.type === "PrivateIdentifier"
    ? n.property.name
    : null;
}

function contains(n: Node, type: string): boolean {
  let found = false;
  walk(toEstree(n), {
    enter(raw) {
      if (fromEstree(raw).type === type) found = true;
    },
  });
  return found;
}

/**
 * The method whose body's top-level `if` tests `n`, when nothing before it names `this`, and its class when that
 * class extends nothing, has no constructor and no static block.
 */
function ownMethod(c: FreshContext, n: Node): { method: Method; cls: Class } | null {
  const stmt = c.parent(n);
  const body = stmt && c.parent(stmt);
  const fn = body && c.parent(body);
  const method = fn && c.parent(fn);
  if (stmt?.type !== "IfStatement" || stmt.test !== n || body?.type !== "BlockStatement" || fn?.type !== "FunctionExpression") return null;
  if (method?.type !== "MethodDefinition" || method.kind !== "method" || method.static || method.computed) return null;
  if (method.key.type !== "Identifier" || fn.async || fn.generator) return null;
  const before = body.body.slice(0, body.body.indexOf(stmt));
  if (before.some((s) => contains(s, "ThisExpression"))) return null;
  const cls = c.parent(c.parent(method) ?? method);
  if (cls?.type !== "ClassDeclaration" && cls?.type !== "ClassExpression") return null;
  if (cls.superClass) return null;
  const members = cls.body.body as Node[];
  if (members.some((m) => m.type === "StaticBlock" || (m.type === "MethodDefinition" && m.kind === "constructor"))) return null;
  return { method, cls };
}

const NONE = Symbol("no initial value known");

/**
 * The value a new instance's `#field` starts with: its initialiser, a constant, or undefined without one; NONE
 * when another field's initialiser could run code (anything but a constant or a new empty collection).
 */
function initialValue(cls: Class, field: string): Primitive | typeof NONE {
  let value: Primitive | typeof NONE = NONE;
  for (const m of cls.body.body as Node[]) {
    if (m.type !== "PropertyDefinition" || m.static) continue;
    const v = m.value as Node | null;
    const constant = !v || (v.type === "Literal" && !("regex" in v)) || emptyCollection(v);
    if (!constant) return NONE;
    if (m.key.type === "PrivateIdentifier" && m.key.name === field && !m.computed)
      value = !v ? undefined : v.type === "Literal" ? (v.value as Primitive) : NONE;
  }
  return value;
}

function emptyCollection(v: Node): boolean {
  return (
    v.type === "NewExpression" &&
    v.callee.type === "Identifier" &&
    ["Map", "Set", "WeakMap", "WeakSet"].includes(v.callee.name) &&
    v.arguments.length === 0
  );
}

/** The class's name, and its binding when never written and never extended. */
function classBinding(c: FreshContext, cls: Class): { name: string; v: Variable } | null {
  const holder = c.parent(cls);
  const id = cls.id ?? (holder?.type === "VariableDeclarator" && holder.init === cls && holder.id.type === "Identifier" ? holder.id : null);
  const v = id ? c.variable(id) : undefined;
  if (!id || !v || v.defs.length !== 1 || v.references.some((r) => r.isWrite() && !r.init)) return null;
  const extended = v.references.some((r) => {
    const p = c.parent(fromEstree(r.identifier));
    return (p?.type === "ClassDeclaration" || p?.type === "ClassExpression") && p.superClass === fromEstree(r.identifier);
  });
  return extended ? null : { name: id.name, v };
}

function className(c: FreshContext, cls: Class): string | null {
  return classBinding(c, cls)?.name ?? null;
}

/** One call of the method: `X.m(args)`, with `X = S.get(C)` declared just before in the same block. */
export interface FreshCall {
  call: NodeOf<"CallExpression">;
  init: Node;
  /** The method's function. */
  method: FunctionNode;
}

/** Every call of `method` in the module, when each is the first use of a new instance of `cls`; else null. */
function freshCalls(c: FreshContext, cls: Class, method: Method): FreshCall[] | null {
  const binding = classBinding(c, cls);
  const name = (method.key as { name: string }).name;
  const reads = c.reads(name);
  // The engine calls a few names itself (`then` of what is awaited, `toString`, …).
  if (!binding || !reads || reads.length === 0 || CALLED_BY_NAME.has(name)) return null;
  const calls: FreshCall[] = [];
  for (const r of reads) {
    const call = freshCall(c, r, binding.v);
    if (!call) return null;
    calls.push({ ...call, method: method.value });
  }
  return calls;
}

function freshCall(c: FreshContext, read: Node, cls: Variable): Omit<FreshCall, "method"> | null {
  const call = c.parent(read);
  const stmt = call && c.parent(call);
  if (read.type !== "MemberExpression" || read.object.type !== "Identifier" || read.computed) return null;
  if (call?.type !== "CallExpression" || call.callee !== read || stmt?.type !== "ExpressionStatement") return null;
  const x = c.variable(read.object);
  const def = x?.defs[0];
  if (!x || x.defs.length !== 1 || def?.type !== "Variable" || x.references.some((r) => r.isWrite() && !r.init)) return null;
  const decl = fromEstree(def.node);
  const init = decl.type === "VariableDeclarator" ? (decl.init as Node | null) : null;
  if (!init || !madeByEmptyState(c, init, cls)) return null;
  // The declaration and the call are statements of one block, the call after: each run of it makes a new one.
  const declaration = c.parent(decl);
  const block = declaration && c.parent(declaration);
  if (!block || !("body" in block) || !Array.isArray(block.body) || c.parent(stmt) !== block) return null;
  const list = block.body as Node[];
  if (list.indexOf(declaration) < 0 || list.indexOf(declaration) > list.indexOf(stmt)) return null;
  // Nothing reaches the instance before the call: no other use of X comes first, nor is X among its arguments,
  // nor in a function of its own (a function declared after the call may run before it).
  const home = enclosingFunction(c, decl);
  const first = x.references.every((r) => {
    const id = fromEstree(r.identifier);
    return r.init || ((id === read.object || id.start > call.end) && enclosingFunction(c, id) === home);
  });
  return first ? { call, init } : null;
}

function enclosingFunction(c: FreshContext, n: Node): Node | null {
  for (let p = c.parent(n); p; p = c.parent(p)) if (isFunction(p)) return p;
  return null;
}

/** `S.get(C)` with S the adapter's empty state: a new instance of C on every run. */
function madeByEmptyState(c: FreshContext, init: Node, cls: Variable): boolean {
  if (init.type !== "CallExpression" || init.optional || init.arguments.length !== 1) return false;
  const callee = init.callee as Node;
  const arg = init.arguments[0] as Node;
  if (callee.type !== "MemberExpression" || callee.optional || memberName(callee) !== "get" || arg.type !== "Identifier") return false;
  return c.variable(arg) === cls && c.value(callee.object)?.kind === "empty";
}

/** Whether `n` is a string on every run: a string literal or template, an array's `join`, a binding made with one. */
function isString(c: FreshContext, n: Node, calls: FreshCall[], depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (n.type === "TemplateLiteral" || (n.type === "Literal" && typeof n.value === "string")) return true;
  if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.optional && !n.callee.optional)
    return memberName(n.callee) === "join" && isArray(c, n.callee.object, calls, depth + 1);
  const init = n.type === "Identifier" ? constantInit(c, n) : null;
  return !!init && isString(c, init, calls, depth + 1);
}

/** The initialiser of the binding `id` names, when declared once with one, not in a loop head, never written. */
function constantInit(c: FreshContext, id: Node): Node | null {
  const v = c.variable(id);
  const def = v?.defs[0];
  if (!v || v.defs.length !== 1 || def?.type !== "Variable" || v.references.some((r) => r.isWrite() && !r.init)) return null;
  const decl = fromEstree(def.node);
  const head = c.parent(c.parent(decl) ?? decl);
  if (decl.type !== "VariableDeclarator" || decl.id !== fromEstree(def.name) || /^For(In|Of)?Statement$/.test(head?.type ?? ""))
    return null;
  return (decl.init as Node | null) ?? null;
}

/**
 * Whether `n` is an array on every run: a literal, an array method that makes one called on one, `a ?? b` with `a`
 * always null or undefined and `b` one, a binding made with one, a parameter of the method every call gives one,
 * or a part of what the adapter gives call() that is a binding of the adapter's made with one.
 */
function isArray(c: FreshContext, n: Node, calls: FreshCall[], depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (n.type === "ArrayExpression") return true;
  if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.optional && !n.callee.optional)
    return TO_ARRAY.has(memberName(n.callee) ?? "") && isArray(c, n.callee.object, calls, depth + 1);
  if (n.type === "LogicalExpression" && n.operator === "??") {
    const l = c.value(n.left);
    return l?.kind === "const" && l.value == null && isArray(c, n.right, calls, depth + 1);
  }
  if (n.type !== "Identifier") return false;
  const init = constantInit(c, n);
  if (init) return isArray(c, init, calls, depth + 1);
  const v = c.variable(n);
  const def = v?.defs[0];
  if (!v || v.defs.length !== 1 || def?.type !== "Parameter" || v.references.some((r) => r.isWrite() && !r.init)) return false;
  const fn = fromEstree(def.node) as FunctionNode;
  const given = passed(fn, fromEstree(def.name), calls) ?? fromAdapter(c, fn, fromEstree(def.name));
  return !!given && given.every((g) => isArray(c, g, calls, depth + 1));
}

/** What each call of the method gives its plain parameter `name`, when `fn` is the method the calls are of. */
function passed(fn: FunctionNode, name: Node, calls: FreshCall[]): Node[] | null {
  const at = fn.params.indexOf(name as never);
  if (at < 0 || calls.length === 0 || calls.some((k) => k.method !== fn)) return null;
  const args: Node[] = [];
  for (const k of calls) {
    if (k.call.arguments.slice(0, at + 1).some((a) => a.type === "SpreadElement")) return null;
    const a = k.call.arguments[at] as Node | undefined;
    if (!a) return null;
    args.push(a);
  }
  return args;
}

/** The adapter's expression a binding of call()'s parameter takes apart (`{ options: { tools } }`): key steps only. */
function fromAdapter(c: FreshContext, fn: FunctionNode, name: Node): Node[] | null {
  const args = c.adapterArgs(fn);
  const index = fn.params.findIndex((p) => p.start <= name.start && name.end <= p.end);
  const steps = index > 0 && args ? patternPath(fn.params[index] as Node, name) : null;
  let at = args?.[index - 1];
  if (!steps) return null;
  for (const s of steps) {
    if (!("key" in s) || at?.type !== "ObjectExpression") return null;
    at = objectOf(at)?.kind === "object" ? (objectOf(at) as Value & { kind: "object" }).props.get(s.key) : undefined;
  }
  return at ? [at] : null;
}
