/** What the reachability analysis knows of an expression's value (reachability.ts), and the operations on it. */
import type { Node } from "../ast/pattern.js";

export type Primitive = undefined | null | boolean | number | string;

/** What an expression is on every run of the contract's functions, and the fact that makes it so. */
export type Value =
  /** One primitive value. */
  | { kind: "const"; value: Primitive; why: string }
  /** The adapter's emptyState(): every read gives another, a call does nothing, an iteration yields nothing. */
  | { kind: "empty"; why: string }
  /** An array made empty and never written: it holds nothing. */
  | { kind: "none"; why: string }
  /** An object the adapter makes for call() and nothing writes: its properties, as the adapter's expressions. */
  | { kind: "object"; props: Map<string, Node>; node: Node; why: string }
  /** One array literal just made, element by element (null: not known). Never kept by a binding. */
  | { kind: "tuple"; elems: Array<Value | null>; why: string }
  /** An array of array literals each made afresh by the same `map` callback, element by element, nothing writes. */
  | { kind: "rows"; elems: Array<Value | null>; why: string }
  /** An object a map holds under the key read (map-entries.ts): never undefined, never a primitive. */
  | { kind: "entry"; why: string };

/** Methods of an array that read it and write nothing (an empty array's callbacks never run). */
/** The members the adapter's emptyState() answers with a function of its own rather than another empty state. */
export const EMPTY_METHODS = new Set([
  "filter",
  "map",
  "flatMap",
  "slice",
  "concat",
  "some",
  "includes",
  "has",
  "findIndex",
  "findLastIndex",
  "indexOf",
  "lastIndexOf",
  "every",
  "get",
  "find",
  "forEach",
]);

export const ARRAY_READS = new Set([
  "length",
  "filter",
  "map",
  "flatMap",
  "slice",
  "some",
  "every",
  "find",
  "findLast",
  "findIndex",
  "findLastIndex",
  "indexOf",
  "lastIndexOf",
  "includes",
  "forEach",
  "join",
  "at",
  "toSorted",
]);

/** Methods of an array that call a callback with each element and keep none of them in what they return. */
export const ELEMENT_READS = new Set(["flatMap", "map", "some", "every", "forEach", "findIndex", "findLastIndex"]);

/** Methods of an array that give a new array: on an array, their result is one. */
export const ARRAY_MAKERS = new Set(["filter", "map", "flatMap", "slice", "concat", "split"]);

export const NO = Symbol("not known");

export function binary(op: string, l: Primitive, r: Primitive): Primitive | typeof NO {
  switch (op) {
    case "===":
      return l === r;
    case "!==":
      return l !== r;
    case "==":
      return l == r;
    case "!=":
      return l != r;
    case "<":
    case ">":
    case "<=":
    case ">=":
      if (typeof l !== "number" || typeof r !== "number") return NO;
      return op === "<" ? l < r : op === ">" ? l > r : op === "<=" ? l <= r : l >= r;
    default:
      return NO;
  }
}

/** A value the code itself fixes (a literal, `[]`), said by the binding that holds it. */
export function named(v: Value | null, id: Node): Value | null {
  if (!v || v.why !== "" || (v.kind !== "const" && v.kind !== "none")) return v;
  const what = v.kind === "none" ? "an empty array" : v.value === undefined ? "undefined" : JSON.stringify(v.value);
  return { ...v, why: `\`${(id as { name: string }).name}\` is always ${what}` };
}

export function withWhy(v: Value | null, why: string): Value | null {
  return v && !v.why ? { ...v, why } : v;
}

/** The fact behind a value, or what it is when the code itself fixes it. */
export function because(v: Value): string {
  return v.why || "it is a constant of the code";
}

export function truthOf(v: Value): boolean {
  return v.kind === "const" ? Boolean(v.value) : true;
}

/** One value when all are the same known value, else null. */
export function join(values: Array<Value | null>): Value | null {
  const first = values[0];
  if (!first) return null;
  if (values.length === 1) return first;
  for (const v of values) {
    if (!v || v.kind !== first.kind) return null;
    if (v.kind === "const" && first.kind === "const" && !Object.is(v.value, first.value)) return null;
    if (v.kind === "object" || v.kind === "tuple" || v.kind === "rows") return null;
  }
  return first;
}
