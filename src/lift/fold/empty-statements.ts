/**
 * What the other folds leave behind: `if (t) {}`, `{}`, `;`, `void 0;`, and blocks inside blocks.
 * An if with nothing to do keeps its test as a statement when the test may have an effect; a block
 * without declarations of its own is spliced into the list around it.
 */
import type { Node } from "../../ast/pattern.js";
import { effectsOf, withEffects } from "./pure.js";
import { rewriteUp, type Fold } from "./tree.js";

const isEmpty = (s: Node | null | undefined): boolean => !s || s.type === "EmptyStatement" || (s.type === "BlockStatement" && s.body.length === 0);
/** A block whose statements declare nothing scoped to it, so its statements can join the enclosing list. */
const isPlainBlock = (s: Node): boolean =>
  s.type === "BlockStatement" && !s.body.some((x: Node) => (x.type === "VariableDeclaration" && x.kind !== "var") || x.type === "FunctionDeclaration" || x.type === "ClassDeclaration");

function statementOf(effects: Node[], at: Node): Node | null {
  if (effects.length === 0) return null;
  return { type: "ExpressionStatement", expression: withEffects(effects.slice(0, -1), effects.at(-1)!), start: at.start, end: at.end };
}

function foldStatement(n: Node): [Node | null, number] {
  if (n.type === "IfStatement") {
    if (n.alternate && isEmpty(n.alternate)) return [{ ...n, alternate: null }, 1];
    if (!isEmpty(n.consequent)) return [n, 0];
    if (!n.alternate) return [statementOf(effectsOf(n.test), n), 1];
    const test = { type: "UnaryExpression", operator: "!", prefix: true, argument: n.test, start: n.test.start, end: n.test.end };
    return [{ ...n, test, consequent: n.alternate, alternate: null }, 1];
  }
  if (n.type === "ExpressionStatement" && !n.directive) {
    const effects = effectsOf(n.expression);
    if (effects.length === 1 && effects[0] === n.expression) return [n, 0];
    return [statementOf(effects, n), 1];
  }
  if (n.type === "EmptyStatement") return [null, 1];
  return [n, 0];
}

/** A statement made of a sequence, `(a(), b());`, as the folds leave one. */
const isSequenceStatement = (s: Node): boolean => s.type === "ExpressionStatement" && s.expression.type === "SequenceExpression";

/** Splice plain blocks into the statement list holding them (a function body or a block), and sequences as statements. */
function flattenBlocks(n: Node): number {
  const key = n.type === "BlockStatement" ? "body" : n.type === "SwitchCase" ? "consequent" : null;
  if (!key || !n[key].some((s: Node) => isPlainBlock(s) || isSequenceStatement(s))) return 0;
  const before = n[key].length;
  n[key] = n[key].flatMap((s: Node) =>
    isPlainBlock(s) ? s.body : isSequenceStatement(s) ? s.expression.expressions.map((e: Node) => ({ type: "ExpressionStatement", expression: e, start: e.start, end: e.end })) : [s],
  );
  return Math.max(1, Math.abs(before - n[key].length));
}

export const emptyStatements: Fold = (root) => {
  let count = 0;
  rewriteUp(root, (n, parent, key) => {
    // An empty statement in a single statement slot (a loop body, an if branch) is what fills it.
    if (n.type === "EmptyStatement" && !Array.isArray(parent[key])) return n;
    const [r, changes] = foldStatement(n);
    count += changes;
    if (r) count += flattenBlocks(r);
    return r;
  });
  return count;
};
