/**
 * One binding per declaration: the minifier chains bindings with commas to save keywords.
 *
 *   let a = f(), b = a + 1;   →   let a = f();
 *                                 let b = a + 1;
 *
 * Each declarator still runs in its turn, in the same scope. Declarations heading a for loop
 * (`for (let i = 0, n = xs.length; …)`) are not in a statement list and stay as they are.
 */
import type { VariableDeclaration } from "acorn";
import type { Node } from "../../ast/pattern.js";
import { listOf, setList } from "./statement-lists.js";
import { defineFold } from "./tree.js";

const isChained = (s: Node): s is VariableDeclaration => s.type === "VariableDeclaration" && s.declarations.length > 1;

export const singleDeclarations = defineFold({ scope: false, rewrite: (_root, changed) => ({ leave: (n) => split(n, changed) }) });

/** `n` with the declarations in its list (if it holds one) split. */
function split(n: Node, changed: () => void): Node {
  const list = listOf(n);
  if (!list?.some(isChained)) return n;
  setList(
    n,
    list.flatMap((s): Node[] => {
      if (!isChained(s)) return [s];
      changed();
      return s.declarations.map((d): VariableDeclaration => ({ ...s, declarations: [d], start: d.start, end: d.end }));
    }),
  );
  return n;
}
