/**
 * Parameters a callback never reads, left by cuts: once a port makes a test constant, `(item) => false`
 * still names an item. The trailing plain parameters of an arrow function that nothing refers to go
 * (`() => false`), where the arrow is handed to other code — written as an argument, or bound to a name
 * that is only passed on. An arrow called right here keeps them: `f(tools)` would pass what `() => …`
 * does not take. An arrow has no `arguments` object, so the one thing that could tell is its `length`,
 * which a search routine has no reason to read; verification runs on the folded code.
 */
import type { Identifier } from "acorn";
import type { Variable } from "eslint-scope";
import { walk, type Node } from "../../ast/pattern.js";
import type { Rewrite } from "../../ast/traverse.js";

import { defineFold, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

export const unusedParameters = defineFold({ scope: true, rewrite: (root, changed) => dropUnread(root, changed) });

function dropUnread(root: Node, changed: () => void): Rewrite | null {
  const variables = variablesOf(root);
  const unread = new Set<Node>();
  for (const v of variables) {
    const def = v.defs[0];
    if (v.defs.length !== 1 || def?.type !== "Parameter" || v.references.length > 0) continue;
    if (fromEstree(def.node).type === "ArrowFunctionExpression") unread.add(fromEstree(def.name));
  }
  if (unread.size === 0) return null;
  const called = calledArrows(root, variables);
  const leave = (n: Node): Node => {
    if (n.type !== "ArrowFunctionExpression" || called.has(n)) return n;
    const params = n.params as Identifier[];
    // A parameter inside a pattern or with a default is not the plain identifier the analysis defined.
    while (params.length > 0 && unread.has(params.at(-1)!)) {
      params.pop();
      changed();
    }
    return n;
  };
  return { leave };
}

/** Arrows called where they are seen: bound to a name that is a callee somewhere, or called in place. */
function calledArrows(root: Node, variables: Variable[]): Set<Node> {
  const callees = new Set<Node>();
  walk(root, (n) => {
    if (n.type === "CallExpression" || n.type === "NewExpression") callees.add(n.callee);
  });
  const out = new Set<Node>();
  for (const v of variables) {
    const def = v.defs[0];
    const init = def?.type === "Variable" ? fromEstree(def.node.init) : null;
    if (init?.type === "ArrowFunctionExpression" && v.references.some((r) => callees.has(fromEstree(r.identifier)))) out.add(init);
  }
  for (const c of callees) if (c.type === "ArrowFunctionExpression") out.add(c);
  return out;
}
