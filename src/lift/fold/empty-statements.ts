/**
 * What the other folds leave behind: `if (t) {}`, `{}`, `;`, `void 0;`, and blocks inside blocks.
 * An if with nothing to do keeps its test as a statement when the test may have an effect; a block
 * without declarations of its own is spliced into the list around it.
 */
import type { BlockStatement, UnaryExpression, VariableDeclaration } from "acorn";
import { fieldsOf, type Node, memberName } from "../../ast/pattern.js";
import { effectsOf, withEffects, type Known } from "./pure.js";
import { defineFold, laterWrites, loopHeadsOf, reads, singleDeclarator, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

const isEmpty = (s: Node | null | undefined): boolean =>
  !s || s.type === "EmptyStatement" || (s.type === "BlockStatement" && s.body.length === 0);
/** A block whose statements declare nothing scoped to it, so its statements can join the enclosing list. */
const isPlainBlock = (s: Node): boolean =>
  s.type === "BlockStatement" &&
  !s.body.some(
    (x: Node) =>
      (x.type === "VariableDeclaration" && x.kind !== "var") || x.type === "FunctionDeclaration" || x.type === "ClassDeclaration",
  );

function statementOf(effects: Node[], at: Node): Node | null {
  if (effects.length === 0) return null;
  return { type: "ExpressionStatement", expression: withEffects(effects.slice(0, -1), effects.at(-1)!), start: at.start, end: at.end };
}

function foldStatement(n: Node, known: Known): [Node | null, number] {
  if (n.type === "IfStatement") {
    if (n.alternate && isEmpty(n.alternate)) return [{ ...n, alternate: null }, 1];
    if (!isEmpty(n.consequent)) return [n, 0];
    if (!n.alternate) return [statementOf(effectsOf(n.test, known), n), 1];
    const test: UnaryExpression = {
      type: "UnaryExpression",
      operator: "!",
      prefix: true,
      argument: n.test,
      start: n.test.start,
      end: n.test.end,
    };
    return [{ ...n, test, consequent: n.alternate, alternate: null }, 1];
  }
  if (n.type === "ExpressionStatement" && !n.directive) {
    const effects = effectsOf(n.expression, known);
    const parts: Node[] = n.expression.type === "SequenceExpression" ? n.expression.expressions : [n.expression];
    if (effects.length === parts.length && effects.every((e, i) => e === parts[i])) return [n, 0];
    return [statementOf(effects, n), 1];
  }
  if (n.type === "EmptyStatement") return [null, 1];
  return [n, 0];
}

/** Splice plain blocks into the statement list holding them (a function body or a block). */
function flattenBlocks(n: Node): number {
  const key = n.type === "BlockStatement" ? "body" : n.type === "SwitchCase" ? "consequent" : null;
  if (!key || !(fieldsOf(n)[key] as Node[]).some(isPlainBlock)) return 0;
  const blocks = (fieldsOf(n)[key] as Node[]).filter(isPlainBlock).length;
  fieldsOf(n)[key] = (fieldsOf(n)[key] as Node[]).flatMap((s: Node) => (isPlainBlock(s) ? (s as BlockStatement).body : [s]));
  return blocks;
}

/**
 * `xs.length` where xs is declared once as an array literal and never written again (its contents
 * may change, never what it is): reading it has no effect, and it is a number.
 */
function arrayLengths(root: Node): Known {
  const heads = loopHeadsOf(root);
  const arrays = new Set<Node>();
  for (const v of variablesOf(root)) {
    const decl = singleDeclarator(v, heads);
    if (
      decl?.init?.type !== "ArrayExpression" ||
      laterWrites(v).length > 0 ||
      (fromEstree(v.defs[0]!.parent) as VariableDeclaration | null)?.kind === "var"
    )
      continue;
    for (const r of reads(v)) arrays.add(fromEstree(r.identifier));
  }
  return { length: (m) => !m.computed && !m.optional && memberName(m) === "length" && arrays.has(m.object) };
}

export const emptyStatements = defineFold({
  scope: true,
  after: ["constantConditions", "equalBranches"],
  rewrite: (root, changed) => {
    const known = arrayLengths(root);
    return {
      leave: (n, at) => {
        // An empty statement in a single statement slot (a loop body, an if branch) is what fills it.
        if (n.type === "EmptyStatement" && at.index === null) return n;
        const [r, changes] = foldStatement(n, known);
        changed(changes);
        if (r) changed(flattenBlocks(r));
        return r;
      },
    };
  },
});
