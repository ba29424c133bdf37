/**
 * What the dead-code folds may drop or duplicate: expressions without effects, and the effects an
 * expression must keep when its value is dropped. Strict: a call, a construction, an assignment, an
 * await and a property read (a getter, or a throw on null) all count as effects.
 */
import type { Expression, Literal, MemberExpression, Property, UnaryExpression } from "acorn";
import type { Node } from "../../ast/pattern.js";

export const isUndefined = (n: Node | null | undefined): boolean =>
  !!n &&
  ((n.type === "UnaryExpression" && n.operator === "void" && n.argument.type === "Literal") ||
    (n.type === "Identifier" && n.name === "undefined"));

/** A value known without running anything: a literal other than a regular expression (each evaluation makes a new one), or undefined. */
export const isConstant = (n: Node | null | undefined): boolean => !!n && (isUndefined(n) || (n.type === "Literal" && !n.regex));

/** The value of a constant (see isConstant). */
export const constantValue = (n: Node): unknown => (isUndefined(n) ? undefined : (n as Literal).value);

export const undefinedAt = (at: Node): UnaryExpression => ({
  type: "UnaryExpression",
  operator: "void",
  prefix: true,
  argument: { type: "Literal", value: 0, raw: "0", start: at.start, end: at.end },
  start: at.start,
  end: at.end,
});

export function literalAt(value: unknown, at: Node): Expression {
  if (value === undefined) return undefinedAt(at);
  if (typeof value === "number" && (value < 0 || Object.is(value, -0))) {
    return { type: "UnaryExpression", operator: "-", prefix: true, argument: literalAt(-value, at), start: at.start, end: at.end };
  }
  return { type: "Literal", value, raw: value === null ? "null" : JSON.stringify(value), start: at.start, end: at.end } as Literal;
}

const PURE_UNARY = new Set(["!", "void", "typeof"]);
// Operators that never call user code when both sides are primitives or references compared by identity.
const PURE_BINARY = new Set(["===", "!=="]);

/**
 * What a fold knows beyond the syntax: `length(m)` says the member expression m is the length of
 * an array (so reading it has no effect, and it is a number); `read(m)` that reading m has no effect
 * and cannot throw (a property of an object no getter can reach).
 */
export interface Known {
  length?: (m: MemberExpression) => boolean;
  read?: (m: MemberExpression) => boolean;
}

const RELATIONAL = new Set(["<", ">", "<=", ">=", "==", "!=", "===", "!=="]);
const isNumber = (n: Node, known: Known): boolean =>
  (n.type === "Literal" && typeof n.value === "number") || (n.type === "MemberExpression" && !!known.length?.(n));

/** Evaluating `n` has no effect and cannot throw (reading a local binding is taken as such). */
export function isPure(n: Node | null | undefined, known: Known = {}): boolean {
  if (!n) return true;
  const pure = (c: Node | null | undefined) => isPure(c, known);
  switch (n.type) {
    case "Literal":
    case "Identifier":
    case "ThisExpression":
    case "ArrowFunctionExpression":
    case "FunctionExpression":
      return true;
    case "TemplateLiteral":
      return n.expressions.length === 0;
    case "UnaryExpression":
      return PURE_UNARY.has(n.operator) && pure(n.argument);
    case "BinaryExpression":
      if (RELATIONAL.has(n.operator) && isNumber(n.left, known) && isNumber(n.right, known)) return true;
      return PURE_BINARY.has(n.operator) && pure(n.left) && pure(n.right);
    case "MemberExpression":
      return !!known.length?.(n) || !!known.read?.(n);
    case "LogicalExpression":
      return pure(n.left) && pure(n.right);
    case "ConditionalExpression":
      return pure(n.test) && pure(n.consequent) && pure(n.alternate);
    case "SequenceExpression":
      return n.expressions.every(pure);
    case "ArrayExpression":
      return n.elements.every((e: Node | null) => !e || (e.type !== "SpreadElement" && pure(e)));
    case "ObjectExpression":
      return n.properties.every((p: Node) => p.type === "Property" && (!p.computed || isConstant(p.key)) && pure(p.value));
    default:
      return false;
  }
}

/** The parts of `n` that must still run when its value is no longer used (empty when it is pure). */
export function effectsOf(n: Node, known: Known = {}): Node[] {
  const inner = (c: Node | null): Node[] => (c ? effectsOf(c, known) : []);
  if (isPure(n, known)) return [];
  if (n.type === "ArrayExpression" && n.elements.every((e: Node | null) => e?.type !== "SpreadElement")) return n.elements.flatMap(inner);
  if (n.type === "ObjectExpression" && n.properties.every((p: Node) => p.type === "Property" && (!p.computed || isConstant(p.key)))) {
    return n.properties.flatMap((p) => inner((p as Property).value));
  }
  if (n.type === "SequenceExpression") return n.expressions.flatMap(inner);
  return [n];
}

/** `value`, preceded by `effects` where there are any: `(e1, e2, value)`. */
export function withEffects(effects: Node[], value: Node): Expression {
  if (effects.length === 0) return value as Expression;
  return { type: "SequenceExpression", expressions: [...effects, value] as Expression[], start: value.start, end: value.end };
}
