/**
 * Map reads that always find an entry: `map.get(key)` where the map was built with an object under every
 * element of a list, and the key is an element of that list (reachability.ts then knows the read is never
 * `undefined`, so a guard that throws on a missing entry never runs).
 *
 *   function buildPatterns(terms) {                 // a builder: an object under each element of its parameter
 *     let patterns = new Map();
 *     for (let term of terms) if (!patterns.has(term)) patterns.set(term, new RegExp(term));
 *     return patterns;
 *   }
 *   let patterns = buildPatterns(terms);
 *   for (let term of terms) patternOf(patterns, term);   // patternOf's `map.get(key)` always finds one
 *
 * Sound, not complete: the map must never be handed anywhere but to `get`/`has` (or to a function called only by
 * its name that does no more with it), the list never written after the map is built (only read), and the key
 * an element of that list — the loop variable of a `for…of` over it, or the first parameter of a callback of
 * one of its methods that visit each element; a list chosen by `cond ? [...list, …] : other` holds the first
 * list's elements where the code runs under an `if` of the same test.
 */
import type { Variable } from "eslint-scope";
import { isFunction, memberName, type FunctionNode, type Node } from "../ast/pattern.js";
import { fromEstree } from "../ast/estree-bridge.js";
import { VISITORS, written } from "./call-flow.js";
import { mapBuilderFrame } from "./code-shapes.js";

/** What the proof reads of the module: its scopes, parents and source (Reachability provides them). */
export interface MapContext {
  variable(id: Node): Variable | undefined;
  parent(n: Node): Node | undefined;
  code(n: Node): string;
  /** The function an identifier names when every other use of that name is a call of it. */
  directFunction(id: Node): FunctionNode | null;
}

/** What may be done to a list after the map is built without changing its elements. */
const LIST_READS = new Set([...VISITORS, "length", "includes", "indexOf", "slice", "join", "at", "concat"]);
/** Calls between one read and the map it reads, followed through parameters, at most. */
const MAX_DEPTH = 4;

/** Why `call` (a `map.get(key)`) finds an object on every run, or null when that is not known. */
export function heldEntry(m: MapContext, call: Node): string | null {
  if (call.type !== "CallExpression" || call.optional || call.arguments.length !== 1) return null;
  const callee = call.callee as Node;
  if (callee.type !== "MemberExpression" || callee.optional || memberName(callee) !== "get") return null;
  const [map, key] = [callee.object as Node, call.arguments[0] as Node];
  if (map.type !== "Identifier" || key.type !== "Identifier") return null;
  const built = holds(m, map, key, 0);
  if (!built) return null;
  const where = built.through.length ? `at each call of \`${built.through.join("` and of `")}\`, ` : "";
  return `${where}\`${m.code(map)}\` holds an entry for every element of \`${built.list}\` (${built.builder} sets one for each), and \`${m.code(key)}\` is one of them`;
}

/** Where a map read finds its entry: the list the map was built from, its builder, and the functions passed through. */
interface Built {
  list: string;
  builder: string;
  through: string[];
}

/** How the map `map` holds an object under `key` wherever this read runs, or null when that is not known. */
function holds(m: MapContext, map: Node, key: Node, depth: number): Built | null {
  const [vm, vk] = [m.variable(map), m.variable(key)];
  if (!vm || !vk || depth > MAX_DEPTH || written(vk) || written(vm)) return null;
  const defM = vm.defs[0];
  if (vm.defs.length !== 1 || !defM) return null;
  if (defM.type === "Parameter") return throughParameters(m, vm, vk, depth);
  const decl = fromEstree(defM.node);
  if (defM.type !== "Variable" || decl.type !== "VariableDeclarator" || decl.init?.type !== "CallExpression") return null;
  const build = decl.init;
  const list = build.arguments[0] as Node | undefined;
  const builder = build.callee.type === "Identifier" ? m.directFunction(build.callee) : null;
  if (!builder || !list || list.type !== "Identifier" || build.arguments.length !== 1 || !isBuilder(m, builder)) return null;
  if (!vm.references.every((r) => r.init || onlyLooksUp(m, fromEstree(r.identifier), 0))) return null;
  return elementOf(m, vk, list) ? { list: m.code(list), builder: m.code(build.callee), through: [] } : null;
}

/** The map and the key are parameters of one function: they hold at every call of it. */
function throughParameters(m: MapContext, vm: Variable, vk: Variable, depth: number): Built | null {
  const fn = fromEstree(vm.defs[0]!.node) as FunctionNode;
  const defK = vk.defs[0];
  if (!defK || defK.type !== "Parameter" || (defK.node as unknown) !== fn || !isFunction(fn)) return null;
  const at = (v: Variable) => fn.params.indexOf(v.defs[0]!.name as never);
  const [i, j] = [at(vm), at(vk)];
  const name = fn.type === "FunctionDeclaration" ? fn.id : null;
  if (i < 0 || j < 0 || !name) return null;
  const calls = m.variable(name)?.references.filter((r) => !r.init) ?? [];
  const whys = calls.map((r) => {
    const c = m.parent(fromEstree(r.identifier));
    if (c?.type !== "CallExpression" || c.arguments.some((a) => a.type === "SpreadElement")) return null;
    const [map, key] = [c.arguments[i] as Node | undefined, c.arguments[j] as Node | undefined];
    return map?.type === "Identifier" && key?.type === "Identifier" ? holds(m, map, key, depth + 1) : null;
  });
  if (calls.length === 0 || !whys.every((w) => w !== null)) return null;
  // Said of the first call's list; the others hold for theirs.
  return { ...whys[0]!, through: [name.name, ...whys[0]!.through] };
}

/** Whether the map at `id` is only looked up: `id.get(…)`, `id.has(…)`, or handed to a parameter that is. */
function onlyLooksUp(m: MapContext, id: Node, depth: number): boolean {
  const p = m.parent(id);
  if (p?.type === "MemberExpression" && p.object === id && !p.computed) {
    const c = m.parent(p);
    return c?.type === "CallExpression" && c.callee === p && ["get", "has"].includes(memberName(p) ?? "");
  }
  if (p?.type !== "CallExpression" || p.callee === id || p.callee.type !== "Identifier" || depth > MAX_DEPTH) return false;
  const at = p.arguments.indexOf(id as never);
  const fn = m.directFunction(p.callee);
  const param = fn?.params[at] as Node | undefined;
  if (!fn || at < 0 || param?.type !== "Identifier" || p.arguments.slice(0, at).some((a) => a.type === "SpreadElement")) return false;
  const v = m.variable(param);
  return !!v && !written(v) && v.references.every((r) => onlyLooksUp(m, fromEstree(r.identifier), depth + 1));
}

/**
 * A builder: `function (list) { let map = new Map(); for (let x of list) [if (!map.has(x))] map.set(x, OBJECT);
 * return map; }`, with the global Map and a value that is an object (`new …`, a literal object, array or function).
 */
function isBuilder(m: MapContext, fn: FunctionNode): boolean {
  const [param] = fn.params;
  const frame = mapBuilderFrame(fn, (id) => m.variable(id));
  if (!frame || param?.type !== "Identifier" || frame.list.name !== param.name) return false;
  const left = frame.loop.left as Node;
  if (left.type !== "VariableDeclaration" || left.declarations[0]?.id.type !== "Identifier") return false;
  return setsEach(frame.loop.body, frame.map.name, left.declarations[0].id.name);
}

/** The loop's body sets `map` under `x` to an object, directly or when `!map.has(x)` (it is there otherwise). */
function setsEach(body: Node, map: string, x: string): boolean {
  let s = body;
  if (s.type === "BlockStatement" && s.body.length === 1) s = s.body[0] as Node;
  if (s.type === "IfStatement" && !s.alternate) {
    const t = s.test as Node;
    if (t.type !== "UnaryExpression" || t.operator !== "!" || !isMapCall(t.argument, map, "has", x, 1)) return false;
    s = s.consequent;
    if (s.type === "BlockStatement" && s.body.length === 1) s = s.body[0] as Node;
  }
  if (s.type !== "ExpressionStatement" || !isMapCall(s.expression, map, "set", x, 2)) return false;
  const value = (s.expression as Node & { type: "CallExpression" }).arguments[1] as Node;
  return ["NewExpression", "ObjectExpression", "ArrayExpression"].includes(value.type) || isFunction(value);
}

function isMapCall(e: Node, map: string, method: string, x: string, args: number): boolean {
  if (e.type !== "CallExpression" || e.optional || e.arguments.length !== args) return false;
  const c = e.callee as Node;
  const first = e.arguments[0] as Node;
  return (
    c.type === "MemberExpression" &&
    c.object.type === "Identifier" &&
    c.object.name === map &&
    memberName(c) === method &&
    first.type === "Identifier" &&
    first.name === x
  );
}

/** Whether the binding `vk` holds an element of the list `list` names (unchanged since the map was built). */
function elementOf(m: MapContext, vk: Variable, list: Node): boolean {
  const def = vk.defs[0];
  const id = fromEstree(def?.name);
  if (!def || !id || vk.defs.length !== 1) return false;
  // `for (let key of xs)`: the declarator's declaration's parent is the loop.
  const holder = m.parent(m.parent(m.parent(id) ?? id) ?? id);
  if (def.type === "Variable" && holder?.type === "ForOfStatement" && !holder.await && holder.right.type === "Identifier")
    return within(m, holder.right, list, holder);
  // `xs.every((key) => …)`: the key is a visiting callback's first parameter.
  const fn = fromEstree(def.node) as FunctionNode;
  if (def.type !== "Parameter" || !isFunction(fn) || fn.params[0] !== (id as never)) return false;
  const call = m.parent(fn);
  const callee = call?.type === "CallExpression" ? (call.callee as Node) : null;
  if (call?.type !== "CallExpression" || call.arguments[0] !== (fn as never) || callee?.type !== "MemberExpression") return false;
  if (!VISITORS.has(memberName(callee) ?? "") || callee.object.type !== "Identifier") return false;
  return within(m, callee.object, list, call);
}

/** Whether `xs`, read at `site`, holds only elements of `list`: the same list, or one `list` was made to hold. */
function within(m: MapContext, xs: Node, list: Node, site: Node): boolean {
  const [vx, vl] = [m.variable(xs), m.variable(list)];
  if (!vx || !vl || written(vx) || written(vl) || !readOnly(m, vl, null)) return false;
  if (vx === vl) return true;
  // `list = cond ? [...xs, …] : other`, read where `if (cond)` holds; `xs` may be filled before `list` is made.
  const decl = fromEstree(vl.defs[0]?.node);
  const init = decl?.type === "VariableDeclarator" ? (decl.init as Node | null | undefined) : null;
  if (!decl || vl.defs.length !== 1 || init?.type !== "ConditionalExpression" || !readOnly(m, vx, decl)) return false;
  const spreads = (arm: Node) =>
    arm.type === "ArrayExpression" && arm.elements.some((e) => e?.type === "SpreadElement" && m.variable(e.argument) === vx);
  if (spreads(init.consequent) && spreads(init.alternate)) return true;
  return spreads(init.consequent) && underSameTest(m, site, init.test, decl);
}

/** Whether `site` runs only where `test` is true: in the consequent of an `if` with the same test, which reads
 *  nothing written once `decl` has run. */
function underSameTest(m: MapContext, site: Node, test: Node, decl: Node): boolean {
  const ids = identifiers(test);
  const fixed = (id: Node) => {
    const v = m.variable(id);
    return !!v && !written(v) && readOnly(m, v, decl);
  };
  if (!ids.every(fixed)) return false;
  for (let child = site, p = m.parent(site); p; child = p, p = m.parent(p))
    if (p.type === "IfStatement" && p.consequent === child && m.code(p.test) === m.code(test)) return true;
  return false;
}

function identifiers(n: Node): Node[] {
  if (n.type === "Identifier") return [n];
  if (n.type === "MemberExpression") return identifiers(n.object);
  if (n.type === "BinaryExpression" || n.type === "LogicalExpression") return [...identifiers(n.left), ...identifiers(n.right)];
  if (n.type === "UnaryExpression") return identifiers(n.argument);
  return n.type === "Literal" ? [] : [n];
}

/**
 * Whether a list is only read (iterated, spread, measured or visited, handed to a parameter that is only read),
 * never written; with `from`, only from there on: what the function does with it before, outside any loop around
 * `from` and in no nested function, runs first.
 */
function readOnly(m: MapContext, v: Variable, from: Node | null, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  return v.references.every((r) => {
    if (r.init) return true;
    const id = fromEstree(r.identifier);
    if (from && before(m, id, from)) return true;
    const p = m.parent(id);
    if (p?.type === "SpreadElement" || (p?.type === "ForOfStatement" && p.right === id)) return true;
    if (p?.type === "MemberExpression" && p.object === id && !p.computed) {
      const name = memberName(p) ?? "";
      const c = m.parent(p);
      return name === "length"
        ? !(c?.type === "AssignmentExpression" && c.left === p)
        : LIST_READS.has(name) && c?.type === "CallExpression";
    }
    // Handed to a function called only by name, whose parameter there is only read.
    if (p?.type !== "CallExpression" || p.callee === id || p.callee.type !== "Identifier") return false;
    const at = p.arguments.indexOf(id as never);
    const param = m.directFunction(p.callee)?.params[at] as Node | undefined;
    const pv = param?.type === "Identifier" ? m.variable(param) : undefined;
    return !!pv && !p.arguments.slice(0, at).some((a) => a.type === "SpreadElement") && !written(pv) && readOnly(m, pv, null, depth + 1);
  });
}

/** Whether `id` runs before `from` on every run of their function: earlier in it, in no loop around `from`, in no
 *  function nested in theirs. */
function before(m: MapContext, id: Node, from: Node): boolean {
  if (id.end > from.start) return false;
  const fnOf = (n: Node) => {
    for (let p = m.parent(n); p; p = m.parent(p)) if (isFunction(p)) return p;
    return null;
  };
  if (fnOf(id) !== fnOf(from)) return false;
  for (let p = m.parent(from); p && !isFunction(p); p = m.parent(p))
    if (/^(For|ForIn|ForOf|While|DoWhile)Statement$/.test(p.type) && p.start <= id.start && id.end <= p.end) return false;
  return true;
}
