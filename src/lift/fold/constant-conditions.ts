/**
 * Tests whose outcome is known: `if (null) …`, `false ? a : b`, `undefined && x`, `!true`,
 * `void 0 === null`, `undefined?.x`. Where only the test is read for its truth (an if, a conditional's
 * test, the operand of `!`), a constant right side decides too: `x && false` is false once x has run.
 * Statements after a return or throw go as well (function declarations are hoisted: they stay).
 */
import type { LogicalExpression } from "acorn";
import { fieldsOf, type Node } from "../../ast/pattern.js";
import type { Place } from "../../ast/traverse.js";
import { constantValue, effectsOf, isConstant, isUndefined, literalAt, undefinedAt, withEffects } from "./pure.js";
import { defineFold } from "./tree.js";

const truthy = (n: Node): boolean => !!constantValue(n);
const nullish = (n: Node): boolean => constantValue(n) == null;

function foldExpression(n: Node, inTest: boolean): Node {
  switch (n.type) {
    case "UnaryExpression":
      if (n.operator === "!" && isConstant(n.argument)) return literalAt(!truthy(n.argument), n);
      if (n.operator === "void" && !isUndefined(n) && isConstant(n.argument)) return undefinedAt(n);
      return n;
    case "BinaryExpression": {
      if (!isConstant(n.left) || !isConstant(n.right)) return n;
      const [l, r] = [constantValue(n.left), constantValue(n.right)];
      const [a, b] = [l as number, r as number];
      const result = { "===": l === r, "!==": l !== r, "==": l == r, "!=": l != r, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b }[
        n.operator as string
      ];
      return result === undefined ? n : literalAt(result, n);
    }
    case "LogicalExpression":
      return foldLogical(n, inTest);
    case "ConditionalExpression":
      return isConstant(n.test) ? (truthy(n.test) ? n.consequent : n.alternate) : n;
    case "ChainExpression": {
      // `undefined?.x(…).y` is undefined: an optional link on a nullish value ends the whole chain.
      for (let link: Node = n.expression; link && (link.type === "MemberExpression" || link.type === "CallExpression");) {
        const inner: Node = link.type === "MemberExpression" ? link.object : link.callee;
        if (link.optional && isConstant(inner) && nullish(inner)) return undefinedAt(n);
        link = inner;
      }
      return n;
    }
    default:
      return n;
  }
}

function foldLogical(n: LogicalExpression, inTest: boolean): Node {
  const { left, right, operator } = n;
  if (isConstant(left)) {
    if (operator === "&&") return truthy(left) ? right : left;
    if (operator === "||") return truthy(left) ? left : right;
    if (operator === "??") return nullish(left) ? right : left;
  }
  if (!inTest || !isConstant(right) || operator === "??") return n;
  // Only the truth of the whole is read: a constant right side either decides it or changes nothing.
  const decides = operator === "&&" ? !truthy(right) : truthy(right);
  return decides ? withEffects(effectsOf(left), right) : left;
}

/**
 * Whether the node at `at` is only tested for truth: a test, the operand of `!`, or an operand of `&&`/`||`
 * that is (`tested`, the nodes above found so). By place, so it holds for what an earlier rewrite put there.
 */
function testedAt(at: Place | null, tested: Set<Node>): boolean {
  if (!at || at.index !== null) return false;
  const { parent, key } = at;
  return (
    (key === "test" && /^(If|Conditional|While|DoWhile|For)Statement$|^ConditionalExpression$/.test(parent.type)) ||
    (parent.type === "UnaryExpression" && parent.operator === "!") ||
    (tested.has(parent) && parent.type === "LogicalExpression" && parent.operator !== "??")
  );
}

/** A known if goes to its branch; statements after a return or throw go (hoisted declarations stay). Returns [replacement, changes]. */
function foldStatement(n: Node): [Node | null, number] {
  if (n.type === "IfStatement" && isConstant(n.test)) return [truthy(n.test) ? n.consequent : (n.alternate ?? null), 1];
  const key = n.type === "BlockStatement" ? "body" : n.type === "SwitchCase" ? "consequent" : null;
  const list: Node[] | null = key ? (fieldsOf(n)[key] as Node[]) : null;
  if (!list) return [n, 0];
  const end = list.findIndex((s) => s.type === "ReturnStatement" || s.type === "ThrowStatement");
  if (end < 0) return [n, 0];
  const kept = list.filter(
    (s, i) => i <= end || s.type === "FunctionDeclaration" || (s.type === "VariableDeclaration" && s.kind === "var"),
  );
  fieldsOf(n)[key!] = kept;
  return [n, list.length - kept.length];
}

export const constantConditions = defineFold({
  scope: false,
  after: ["constantBindings"],
  rewrite: (_root, changed) => {
    const tested = new Set<Node>();
    return {
      enter: (n, at) => {
        if (testedAt(at, tested)) tested.add(n);
      },
      leave: (n, at) => {
        if (/Expression$/.test(n.type)) {
          const r = foldExpression(n, testedAt(at, tested));
          if (r !== n) changed();
          return r;
        }
        const [r, changes] = foldStatement(n);
        changed(changes);
        return r;
      },
    };
  },
});
