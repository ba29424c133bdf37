/**
 * `else` after a branch that always leaves (returns, throws, breaks or continues) dropped: what it
 * held follows the if.
 *
 *   if (x) return y;        →   if (x) return y;
 *   else if (z) return w;       if (z) return w;
 *   else g();                   g();
 *
 * Only in a statement list. An else block that declares names of its own (let, const, class,
 * function) joins the list only where those names would neither clash with nor capture another
 * binding or a global there.
 */
import type { Scope, Variable } from "eslint-scope";
import type { Node } from "../../ast/pattern.js";
import { declaresInBlock, exits, listOf, setList } from "./statement-lists.js";
import { defineFold, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/**
 * Whether the names `block` declares can move to the scope around it: no binding of that name there or
 * further out, and no reference there to a global of that name, which it would capture.
 */
function movable(block: Node, variables: Variable[]): boolean {
  const own = variables.filter((v) => fromEstree(v.scope.block) === block);
  if (own.length === 0) return false;
  const upper = own[0]!.scope.upper!;
  return own.every((v) => {
    for (let s: Scope | null = upper; s; s = s.upper) if (s.set.has(v.name)) return false;
    return !upper.through.some((r) => r.identifier.name === v.name);
  });
}

export const elseAfterExit = defineFold({ scope: true, rewrite: (root, changed) => ({ leave: elseLifter(root, changed) }) });

/** The lists of statements with the else of each if that exits written after it. */
function elseLifter(root: Node, changed: () => void): (n: Node) => Node {
  const variables = variablesOf(root);
  // One move of declarations per run: the scopes found above describe the tree before it.
  let declarationsMoved = false;
  return (n) => {
    const list = listOf(n);
    if (!list?.some((s) => s.type === "IfStatement" && s.alternate && exits(s.consequent))) return n;
    const out: Node[] = [];
    const queue = [...list];
    while (queue.length) {
      const s = queue.shift()!;
      if (s.type !== "IfStatement" || !s.alternate || !exits(s.consequent)) {
        out.push(s);
        continue;
      }
      const alt = s.alternate;
      let rest: Node[] = [alt];
      if (alt.type === "BlockStatement") {
        rest = alt.body;
        if (declaresInBlock(alt.body)) {
          if (declarationsMoved || !movable(alt, variables)) {
            out.push(s);
            continue;
          }
          declarationsMoved = true;
        }
      }
      changed();
      out.push({ ...s, alternate: null });
      // The else's statements may be ifs of the same kind (an else-if chain).
      queue.unshift(...rest);
    }
    setList(n, out);
    return n;
  };
}
