/**
 * Which computed keys (`o[k]`) are harmless without a run-time check: keys that cannot convert to a
 * forbidden property name. A number cannot; nor can a literal that is not one of those names; nor
 * an expression that always yields a number — arithmetic, and variables only ever given numbers
 * (`for (let i = 0; …; i++)`). Shared by the key port (which wraps every other key) and the safety
 * check (which refuses every other key not wrapped).
 */
import type { ScopeManager, Variable } from "eslint-scope";
import type { VariableDeclarator } from "acorn";
import type { Node } from "../ast/pattern.js";
import { FORBIDDEN_PROPERTY_SET } from "./property-names.js";
import { fromEstree } from "../ast/estree-bridge.js";

/** Parent of each node, for the context of an identifier. */
export type Parents = Map<Node, Node>;

const NUMERIC_OPERATORS = new Set(["-", "*", "/", "%", "**", "<<", ">>", ">>>", "&", "|", "^"]);
const NUMERIC_UNARY = new Set(["-", "+", "~"]);

export class NumericAnalysis {
  private readonly numeric: Set<Variable>;
  private readonly variableOf = new Map<Node, Variable>();

  constructor(
    scopes: ScopeManager,
    private readonly parents: Parents,
  ) {
    const candidates = new Set<Variable>();
    for (const scope of scopes.scopes) {
      for (const ref of scope.references) if (ref.resolved) this.variableOf.set(fromEstree(ref.identifier), ref.resolved);
      for (const v of scope.variables)
        if (v.defs.length > 0 && v.defs.every((d) => d.type === "Variable" && (fromEstree(d.node) as VariableDeclarator).id === d.name))
          candidates.add(v);
    }
    // Greatest fixpoint: assume every candidate numeric, drop those given a value that is not.
    this.numeric = candidates;
    for (let changed = true; changed;) {
      changed = false;
      for (const v of [...this.numeric]) {
        if (v.references.every((r) => !r.isWrite() || this.writesNumber(fromEstree(r.identifier)))) continue;
        this.numeric.delete(v);
        changed = true;
      }
    }
  }

  /** Whether the value written through this identifier is always a number (or a BigInt). */
  private writesNumber(id: Node): boolean {
    const p = this.parents.get(id);
    if (!p) return false;
    if (p.type === "UpdateExpression") return true;
    if (p.type === "VariableDeclarator" && p.id === id) {
      const loop = this.parents.get(this.parents.get(p)!);
      if ((loop?.type === "ForInStatement" || loop?.type === "ForOfStatement") && loop.left === this.parents.get(p)) return false;
      return !p.init || this.isNumeric(p.init);
    }
    if (p.type === "AssignmentExpression" && p.left === id) {
      // With the variable numeric by hypothesis, `+=` and the logical assignments give a number when the right side does.
      if (p.operator === "=" || p.operator === "+=" || p.operator === "&&=" || p.operator === "||=" || p.operator === "??=")
        return this.isNumeric(p.right);
      return true;
    }
    return false;
  }

  /** Whether an expression always yields a number or a BigInt. */
  isNumeric(e: Node): boolean {
    switch (e.type) {
      case "Literal":
        return typeof e.value === "number" || typeof e.value === "bigint";
      case "UnaryExpression":
        return NUMERIC_UNARY.has(e.operator);
      case "UpdateExpression":
        return true;
      case "BinaryExpression":
        return NUMERIC_OPERATORS.has(e.operator) || (e.operator === "+" && this.isNumeric(e.left) && this.isNumeric(e.right));
      case "ConditionalExpression":
        return this.isNumeric(e.consequent) && this.isNumeric(e.alternate);
      case "SequenceExpression":
        return this.isNumeric(e.expressions[e.expressions.length - 1]!);
      case "AssignmentExpression":
        if (e.operator === "=") return this.isNumeric(e.right);
        // `+=` and the logical assignments may yield either side.
        if (e.operator === "+=" || e.operator === "&&=" || e.operator === "||=" || e.operator === "??=")
          return this.isNumeric(e.left) && this.isNumeric(e.right);
        return true;
      case "Identifier": {
        const v = this.variableOf.get(e);
        return !!v && this.numeric.has(v);
      }
      default:
        return false;
    }
  }

  /** Whether a computed key is harmless as it stands (no port needed). */
  isHarmless(key: Node): boolean {
    const text = constantString(key);
    if (text !== null) return !FORBIDDEN_PROPERTY_SET.has(text);
    if (key.type === "Literal" && key.regex === undefined) return true;
    return this.isNumeric(key);
  }
}

/**
 * The string a key is as written: a string literal, a template without substitutions, or `+` of
 * those (`"constr" + "uctor"`). Null for anything computed at run time.
 */
export function constantString(e: Node): string | null {
  if (e.type === "Literal" && typeof e.value === "string") return e.value;
  if (e.type === "TemplateLiteral" && e.expressions.length === 0) return e.quasis[0]!.value.cooked ?? null;
  if (e.type === "BinaryExpression" && e.operator === "+") {
    const l = constantString(e.left) ?? constantPrimitive(e.left);
    const r = constantString(e.right) ?? constantPrimitive(e.right);
    if (l !== null && r !== null && (constantString(e.left) !== null || constantString(e.right) !== null)) return l + r;
  }
  return null;
}

function constantPrimitive(e: Node): string | null {
  return e.type === "Literal" && e.regex === undefined && typeof e.value !== "string" ? String(e.value) : null;
}
