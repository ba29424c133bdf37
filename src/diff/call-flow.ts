/**
 * How values go from call to call in a lifted module, as the own-element lookup proof (own-element-lookup.ts) follows
 * them: the calls that may run a function (by its name, by the property an object literal gives it, as a class's
 * method), what each gives a parameter, the values a binding takes, and the functions a name or a property holds.
 * No code but the module's and the engine's runs: the contract's caller passes and gets data, as its types say.
 */
import type { Variable } from "eslint-scope";
import { walk } from "estree-walker";
import { isFunction, ownReturns, type FunctionNode, type Node, type NodeOf } from "../ast/pattern.js";
import { CALLED_BY_NAME } from "./dead-methods.js";
import type { Value } from "./known-values.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** What the proofs read of the module (Reachability provides it). */
export interface FlowContext {
  variable(id: Node): Variable | undefined;
  parent(n: Node): Node | undefined;
  code(n: Node): string;
  value(n: Node): Value | null;
  /** The reads of a property by name, or null when a computed read could name any (property-reads.ts). */
  reads(name: string): Node[] | null;
}

/** Methods of an array that call back with each element, first parameter the element. */
export const VISITORS = new Set(["map", "flatMap", "filter", "forEach", "some", "every", "find", "findIndex", "findLast", "findLastIndex"]);
/** Calls and parameters followed, at most. */
export const MAX_DEPTH = 10;

export type Call = NodeOf<"CallExpression">;
/** The arguments of one call of a function (a conditional spread of array literals gives one list per arm). */
export type Args = Array<Node | undefined>;

/** The function a name is bound to once, never written. */
export function namedFunction(c: FlowContext, id: Node): FunctionNode | null {
  const v = c.variable(id);
  const def = v?.defs[0];
  if (!v || v.defs.length !== 1 || written(v)) return null;
  const n = fromEstree(def!.node);
  const fn =
    def!.type === "FunctionName" ? n : def!.type === "Variable" && n.type === "VariableDeclarator" ? (n.init as Node | null) : null;
  return fn && isFunction(fn) ? fn : null;
}

/** A binding written after its declaration (`x = …`, `x++`). */
export function written(v: Variable): boolean {
  return v.references.some((r) => r.isWrite() && !r.init);
}

export function paramVar(c: FlowContext, fn: FunctionNode, i: number): Variable | undefined {
  const p = fn.params[i] as Node | undefined;
  return p?.type === "Identifier" ? c.variable(p) : undefined;
}

/** The binding's initialiser when it is declared once with one and never written (no loop head). */
export function constInit(c: FlowContext, v: Variable): Node | null {
  const def = v.defs[0];
  if (v.defs.length !== 1 || def?.type !== "Variable" || written(v)) return null;
  const decl = fromEstree(def.node);
  const head = c.parent(c.parent(decl) ?? decl);
  if (decl.type !== "VariableDeclarator" || decl.id !== fromEstree(def.name) || /^For(In|Of)Statement$/.test(head?.type ?? "")) return null;
  return (decl.init as Node | null) ?? null;
}

/** The values a binding (not a parameter) takes: its initialiser and each `=` assigned to it. */
export function assigned(c: FlowContext, id: Node): Node[] | null {
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
export function parameterValues(c: FlowContext, id: Node): Array<Node | undefined> | null {
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
export function keyPath(pattern: Node, name: Node): string[] | null {
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

/** Whether the module exports `fn` (its callers are then the contract's, outside the module). */
export function exported(c: FlowContext, fn: FunctionNode): boolean {
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

/**
 * Every call that may run `fn`, as argument lists: the calls of its name (never handed on otherwise), or of the
 * property an object literal gives it, or of its name as a class's method — every read of that property must be a
 * call, or a test; no code but the module's and the engine's runs (the contract's tools are data), and the engine
 * calls no such name. Null for an exported function (the contract's callers are not the module's) or when unknown.
 */
export function callsOf(c: FlowContext, fn: FunctionNode): Args[] | null {
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
export function argumentLists(call: Call): Args[] | null {
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

/** What the function whose body is `body` returns at each of its own returns; null when one is a bare `return`. */
export function returnsOf(body: Node): Node[] | null {
  const values = ownReturns(body).map((r) => (r.argument as Node | null | undefined) ?? null);
  return values.every((v): v is Node => v !== null) ? values : null;
}

/** The function an object literal gives property `m`: a function, or the name of one. */
export function propertyFunction(c: FlowContext, o: NodeOf<"ObjectExpression">, m: string): FunctionNode | null {
  if (o.properties.some((p) => p.type !== "Property" || p.computed || p.kind !== "init")) return null;
  const own = o.properties.filter((p) => p.type === "Property" && p.key.type === "Identifier" && p.key.name === m);
  if (own.length !== 1) return null;
  const v = (own[0] as NodeOf<"Property">).value as Node;
  if (isFunction(v)) return v;
  return v.type === "Identifier" ? namedFunction(c, v) : null;
}

/** The method `m` of the class `cls` names (its own, the class extending nothing). */
export function classMethod(c: FlowContext, cls: Node, m: string): FunctionNode[] | null {
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

export function usesArguments(fn: FunctionNode): boolean {
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

/** Whether a property read `m` is written instead: assigned, updated, deleted, or a target of a pattern or a loop. */
export function isWriteTarget(c: FlowContext, m: Node): boolean {
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
export function rebound(c: FlowContext, r: Variable["references"][number]): boolean {
  const id = fromEstree(r.identifier);
  const a = c.parent(id);
  return a?.type === "AssignmentExpression" && a.operator === "=" && a.left === id;
}

export function functionName(c: FlowContext, fn: FunctionNode): string {
  if (fn.type !== "ArrowFunctionExpression" && fn.id) return fn.id.name;
  const p = c.parent(fn);
  if (p?.type === "VariableDeclarator" && p.id.type === "Identifier") return p.id.name;
  if (p?.type === "MethodDefinition" && p.key.type === "Identifier") return p.key.name;
  return "it";
}

/** When `a` and `b` are plain parameters of one function: it, and their positions. */
export function sharedFunction(c: FlowContext, a: Node, b: Node): { fn: FunctionNode; i: number; j: number } | null {
  if (a.type !== "Identifier" || b.type !== "Identifier") return null;
  const [va, vb] = [c.variable(a), c.variable(b)];
  const [da, db] = [va?.defs[0], vb?.defs[0]];
  if (!va || !vb || da?.type !== "Parameter" || db?.type !== "Parameter" || da.node !== db.node || written(va) || written(vb)) return null;
  const fn = fromEstree(da.node) as FunctionNode;
  const [i, j] = [fn.params.indexOf(fromEstree(da.name) as never), fn.params.indexOf(fromEstree(db.name) as never)];
  return i >= 0 && j >= 0 && i !== j ? { fn, i, j } : null;
}
