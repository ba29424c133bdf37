/**
 * `let found = []; if (found.length > 0) …`: the test right after the declaration reads the length of
 * an array that nothing has touched yet, which is 0. It is the first thing the test evaluates (the
 * whole test, its `!`, or the left side of a comparison with a constant), and the array is made by the
 * declaration's last declarator, so no code runs between. A port that empties a list leaves this shape.
 */
import { memberName, type Node } from "../../ast/pattern.js";
import { isConstant, literalAt } from "./pure.js";
import { defineFold } from "./tree.js";

/** The name `decl` binds to a new empty array in its last declarator, or null. */
function freshArrayName(decl: Node | undefined): string | null {
  if (decl?.type !== "VariableDeclaration") return null;
  const last = decl.declarations.at(-1);
  const made = last?.init?.type === "ArrayExpression" && last.init.elements.length === 0;
  return made && last.id.type === "Identifier" ? last.id.name : null;
}

const isLengthOf = (n: Node, name: string): boolean =>
  n.type === "MemberExpression" && !n.optional && memberName(n) === "length" && n.object.type === "Identifier" && n.object.name === name;

/** The test with its first-evaluated `name.length` read as 0, or null when it reads something else first. */
function testWithLength(test: Node, name: string): Node | null {
  if (isLengthOf(test, name)) return literalAt(0, test);
  if (test.type === "UnaryExpression" && test.operator === "!" && isLengthOf(test.argument, name))
    return { ...test, argument: literalAt(0, test.argument) };
  if (test.type === "BinaryExpression" && isLengthOf(test.left, name) && isConstant(test.right))
    return { ...test, left: literalAt(0, test.left) };
  return null;
}

export const freshArrayLength = defineFold({ scope: false, rewrite: (_root, changed) => ({ leave: (n) => foldTests(n, changed) }) });

/** `n` (a block) with the ifs right after a fresh array's declaration testing its length as 0. */
function foldTests(n: Node, changed: () => void): Node {
  const body: Node[] | undefined = n.type === "BlockStatement" ? n.body : undefined;
  if (!body) return n;
  for (let i = 1; i < body.length; i++) {
    const statement = body[i]!;
    if (statement.type !== "IfStatement") continue;
    const name = freshArrayName(body[i - 1]);
    const test = name === null ? null : testWithLength(statement.test, name);
    if (test === null) continue;
    body[i] = { ...statement, test } as Node;
    changed();
  }
  return n;
}
