/**
 * A comma sequence heading a statement, split off before it: the parts before the last run first,
 * as their own statements, and the statement keeps the last.
 *
 *   return a(), b;          →   a();
 *                               return b;
 *   if ((x = f(), x > 1)) …  →   x = f();
 *                               if (x > 1) …
 *   let y = (g(), h());     →   g();
 *                               let y = h();
 *
 * Also throw, switch, an assignment to a name (`x = (a(), b)`, whose target is resolved by name
 * alone), and a sequence that is a loop's or an if's whole body (`for (…) (a(), b());`). In a single statement slot (`if (t) return a(), b;`) the statements go in a block; a
 * declaration is only split where it stands in a list, so its scope stays the same.
 */
import type { Expression, SequenceExpression } from "acorn";
import type { Node } from "../../ast/pattern.js";
import { blockOf, listOf, setList, statementOf } from "./statement-lists.js";
import type { Place } from "../../ast/traverse.js";
import { defineFold } from "./tree.js";

const isSequence = (e: Node | null | undefined): e is SequenceExpression => e?.type === "SequenceExpression";

/** The sequence heading `s` and how to put the last part back, or null. */
function headOf(s: Node, inList: boolean): { sequence: SequenceExpression; rest: (last: Expression) => Node } | null {
  switch (s.type) {
    case "ReturnStatement":
    case "ThrowStatement":
      return isSequence(s.argument) ? { sequence: s.argument, rest: (last) => ({ ...s, argument: last }) } : null;
    case "IfStatement":
      return isSequence(s.test) ? { sequence: s.test, rest: (last) => ({ ...s, test: last }) } : null;
    case "SwitchStatement":
      return isSequence(s.discriminant) ? { sequence: s.discriminant, rest: (last) => ({ ...s, discriminant: last }) } : null;
    case "VariableDeclaration": {
      const d = s.declarations[0]!;
      if (!inList || s.declarations.length !== 1 || !isSequence(d.init)) return null;
      return { sequence: d.init, rest: (last) => ({ ...s, declarations: [{ ...d, init: last }] }) };
    }
    case "ExpressionStatement": {
      const e = s.expression;
      // A sequence as a loop's or an if's whole body (in a list, sequenceStatements splits it).
      if (isSequence(e) && !inList) return { sequence: e, rest: (last) => ({ ...s, expression: last }) };
      // Only `=`: `x += (a(), b)` reads x before a() runs.
      if (e.type !== "AssignmentExpression" || e.operator !== "=" || e.left.type !== "Identifier" || !isSequence(e.right)) return null;
      return { sequence: e.right, rest: (last) => ({ ...s, expression: { ...e, right: last } }) };
    }
    default:
      return null;
  }
}

export const sequenceHeads = defineFold({
  scope: false,
  after: ["sequenceStatements", "controlExpressions"],
  rewrite: (_root, changed) => {
    // Blocks made here for statements that stand in a list: their statements join the list.
    const spliced = new Set<Node>();
    return { leave: (n, at) => splitHead(n, at, spliced, changed) };
  },
});

/** `n` with its heading sequence's leading parts as statements before it, in a block. */
function splitHead(n: Node, at: Place, spliced: Set<Node>, changed: () => void): Node {
  const list = listOf(n);
  if (list?.some((s) => spliced.has(s)))
    setList(
      n,
      list.flatMap((s) => (spliced.has(s) ? (listOf(s) as Node[]) : [s])),
    );
  const inList = at.index !== null;
  const head = headOf(n, inList);
  if (!head) return n;
  changed();
  const parts = head.sequence.expressions;
  const block = blockOf([...parts.slice(0, -1).map(statementOf), head.rest(parts.at(-1)!)], n);
  if (inList) spliced.add(block);
  return block;
}
