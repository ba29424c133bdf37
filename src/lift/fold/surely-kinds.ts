/**
 * What proves a value surely an array, a string or undefined, for effectFreeStatements (its doc comment says which
 * values are): `holds` for an identifier read in a statement, `initialised` for a binding read there.
 */
import type { Variable } from "eslint-scope";
import { memberName, returnedValues, type FunctionNode, type Node } from "../../ast/pattern.js";
import { isPure } from "./pure.js";
import { listOf } from "./statement-lists.js";
import { boundFunction, laterWrites, singleDeclarator } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/** What evaluating an expression surely gives, if it gives anything (a throw gives nothing). */
export type Kind = "array" | "string" | "undefined" | null;

/** Methods of an array that give an array: a new one (of the receiver's species, Array for an array the code made), or the receiver. */
const ARRAY_METHODS = new Set(["map", "filter", "slice", "concat", "flat", "flatMap", "splice", "sort", "reverse", "fill"]);

/** Methods of a string that give a string. */
const STRING_METHODS = new Set([
  "slice",
  "substring",
  "substr",
  "trim",
  "trimStart",
  "trimEnd",
  "toLowerCase",
  "toUpperCase",
  "toLocaleLowerCase",
  "toLocaleUpperCase",
  "replace",
  "replaceAll",
  "padStart",
  "padEnd",
  "repeat",
  "concat",
  "charAt",
  "normalize",
]);

/** Calls and bindings followed before giving up (the query of call() in 2.1.332 takes nine: capQuery, capQueryWords, truncateText, …). */
const MAX_DEPTH = 12;

/** The module the fold looks at: its root, loop heads, and each identifier's binding and each node's parent. */
export interface ModuleBindings {
  root: Node;
  heads: Set<Node>;
  resolved: Map<Node, Variable>;
  declared: Map<Node, Variable>;
  parents: Map<Node, Node>;
}

/** What the adapter makes known: the kinds of bindings (`known`), and the bindings whose `.query` is the contract's query. */
export function surelyKinds(
  { heads, resolved, declared, parents }: ModuleBindings,
  known: Map<Variable, Kind>,
  queryHolders: Set<Variable>,
): { holds: (id: Node, statement: Node, kind: Kind) => boolean; initialised: (v: Variable, statement: Node) => boolean } {
  /** The kind of `e`, with `bound` giving the kinds of the parameters of the calls being followed. */
  const kindOf = (e: Node | null | undefined, bound: Map<Variable, Kind>, depth: number): Kind => {
    if (!e || depth > MAX_DEPTH) return null;
    switch (e.type) {
      case "ArrayExpression":
        return "array";
      case "Literal":
        return typeof e.value === "string" ? "string" : null;
      case "TemplateLiteral":
        return "string";
      case "BinaryExpression":
        // With a string on either side, `+` concatenates (or throws converting the other side).
        return e.operator === "+" && (kindOf(e.left, bound, depth) === "string" || kindOf(e.right, bound, depth) === "string")
          ? "string"
          : null;
      case "MemberExpression":
        // The adapter's input is `{ query }`, the contract's query: a string by the contract.
        return e.object.type === "Identifier" && queryHolders.has(resolved.get(e.object)!) && memberName(e) === "query" ? "string" : null;
      case "Identifier": {
        const v = resolved.get(e);
        if (!v) return e.name === "undefined" ? "undefined" : null;
        if (bound.has(v)) return bound.get(v)!;
        if (known.has(v)) return known.get(v)!;
        const decl = singleDeclarator(v, heads);
        if (!decl || laterWrites(v).length > 0 || (fromEstree(v.defs[0]!.parent) as { kind: string }).kind === "var") return null;
        return kindOf(decl.init, bound, depth + 1);
      }
      case "UnaryExpression":
        return e.operator === "void" && isPure(e.argument) ? "undefined" : null;
      case "AwaitExpression":
        // Promise.all settles with a new array of the values (or rejects, and the await throws).
        if (promiseAll(e.argument)) return "array";
        // Neither an array nor undefined is a thenable: the await gives it back.
        return kindOf(e.argument, bound, depth);
      case "ChainExpression":
        return kindOf(e.expression, bound, depth);
      case "LogicalExpression": {
        const left = kindOf(e.left, bound, depth);
        if (left === null) return null;
        // An array is truthy and not nullish; undefined is falsy and nullish; a string is not nullish, and
        // truthy unless empty, so `||` and `&&` of one give a string only when the other side is one too.
        if (left === "string" && e.operator !== "??") return kindOf(e.right, bound, depth) === "string" ? "string" : null;
        const takesLeft = e.operator === "&&" ? left === "undefined" : left !== "undefined";
        return takesLeft ? left : kindOf(e.right, bound, depth);
      }
      case "ConditionalExpression": {
        const test = kindOf(e.test, bound, depth);
        if (test === "array" || test === "undefined") return kindOf(test === "array" ? e.consequent : e.alternate, bound, depth);
        const [a, b] = [kindOf(e.consequent, bound, depth), kindOf(e.alternate, bound, depth)];
        return a === b ? a : null;
      }
      case "CallExpression": {
        const callee = e.callee;
        // The kind of what is called: a receiver's for an array method, the binding's for a function.
        const target = callee.type === "MemberExpression" ? callee.object : callee;
        const optional = e.optional || (callee.type === "MemberExpression" && callee.optional);
        const targetKind = kindOf(target, bound, depth);
        // `undefined?.()` gives undefined; `undefined()` throws, which gives nothing.
        if (targetKind === "undefined") return optional ? "undefined" : null;
        if (callee.type === "MemberExpression") {
          const method = memberName(callee) ?? "";
          if (targetKind === "array") return ARRAY_METHODS.has(method) ? "array" : method === "join" ? "string" : null;
          if (targetKind === "string") return STRING_METHODS.has(method) ? "string" : method === "split" ? "array" : null;
          return null;
        }
        // String(x) of the global String converts x to a string (or throws).
        if (callee.type === "Identifier" && callee.name === "String" && !resolved.has(callee)) return "string";
        const v = callee.type === "Identifier" ? resolved.get(callee) : undefined;
        const fn = v ? boundFunction(v, heads) : null;
        if (!fn || fn.generator) return null;
        // An async function's call gives a promise: only `await f()` gives what it returns.
        if (fn.async && parents.get(e)?.type !== "AwaitExpression") return null;
        return returnKind(fn, e.arguments, bound, depth + 1);
      }
      default:
        return null;
    }
  };
  /** `Promise.all(…)` or `Promise.allSettled(…)` of the global Promise. */
  const promiseAll = (e: Node): boolean =>
    e.type === "CallExpression" &&
    e.callee.type === "MemberExpression" &&
    !e.callee.computed &&
    /^(all|allSettled)$/.test(memberName(e.callee) ?? "") &&
    e.callee.object.type === "Identifier" &&
    e.callee.object.name === "Promise" &&
    !resolved.has(e.callee.object);
  /** What a call of `fn` with `args` returns, when every way out of its body returns the same kind. */
  const returnKind = (fn: FunctionNode, args: Node[], bound: Map<Variable, Kind>, depth: number): Kind => {
    if (fn.body.type === "BlockStatement" && fn.body.body.at(-1)?.type !== "ReturnStatement") return null;
    const inner = new Map(bound);
    fn.params.forEach((p: Node, i: number) => {
      const v = p.type === "Identifier" ? declared.get(p) : undefined;
      if (!v || laterWrites(v).length > 0) return;
      const spread = args.slice(0, i + 1).some((a) => a.type === "SpreadElement");
      inner.set(v, spread || !args[i] ? null : kindOf(args[i], bound, depth));
    });
    const kinds = returnedValues(fn).map((r) => (r ? kindOf(r, inner, depth) : "undefined"));
    return kinds.length > 0 && kinds.every((k) => k === kinds[0]) ? kinds[0]! : null;
  };

  /** Whether the binding `v` read in `statement` is surely initialised there (a parameter, or declared earlier in the same list). */
  const initialised = (v: Variable, statement: Node): boolean => {
    const def = v.defs[0];
    if (!def || v.defs.length !== 1) return false;
    if (def.type === "Parameter") return true;
    const list = listOf(parents.get(statement)!);
    const declaration = fromEstree(def.parent)!;
    return !!list && list.indexOf(declaration) >= 0 && list.indexOf(declaration) < list.indexOf(statement);
  };
  /** Whether the identifier `id`, read in `statement`, is surely initialised there and holds a value of `kind`. */
  const holds = (id: Node, statement: Node, kind: Kind): boolean => {
    const v = id.type === "Identifier" ? resolved.get(id) : undefined;
    return !!v && initialised(v, statement) && kindOf(id, new Map(), 0) === kind;
  };
  return { holds, initialised };
}
