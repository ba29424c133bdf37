/**
 * `let session = null` (or undefined, or a boolean) never written again: every read is that value.
 * This is how a port's cut reaches the code: the client's state became "none", and the tests on it
 * become constants for constant-conditions to fold. Numbers and strings stay named (they say what
 * they are for).
 */
import { memberName, walk, type Node } from "../../ast/pattern.js";
import type { Rewrite } from "../../ast/traverse.js";
import { isUndefined, literalAt } from "./pure.js";
import { defineFold, laterWrites, loopHeadsOf, reads, singleDeclarator, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

const isNoneOrBoolean = (n: Node): boolean =>
  isUndefined(n) || (n.type === "Literal" && (n.value === null || typeof n.value === "boolean"));

export const constantBindings = defineFold({ scope: true, rewrite: (root, changed) => replaceConstants(root, changed) });

/** The reads of constant bindings with their values. */
function replaceConstants(root: Node, changed: (k: number) => void): Rewrite | null {
  const heads = loopHeadsOf(root);
  const replace = new Map<Node, Node>();
  const lengths: Node[][] = [];
  for (const v of variablesOf(root)) {
    const decl = singleDeclarator(v, heads);
    if (!decl || laterWrites(v).length > 0) continue;
    // `let found = (check(a), void 0)`, as a folded call leaves it, holds undefined as well.
    const init: Node | null = decl.init ?? null;
    const value: Node = !init
      ? ({ type: "Identifier", name: "undefined" } as Node)
      : init.type === "SequenceExpression"
        ? init.expressions.at(-1)!
        : init;
    if (init?.type === "ArrayExpression" && init.elements.length === 0) {
      lengths.push(reads(v).map((r) => fromEstree(r.identifier)));
      continue;
    }
    if (!isNoneOrBoolean(value)) continue;
    for (const r of reads(v)) {
      const id = fromEstree(r.identifier);
      replace.set(id, { ...structuredClone(value), start: id.start, end: id.end });
    }
  }
  // `let found = []` that nothing but `found.length` reads stays empty: its length is 0.
  if (lengths.length > 0) {
    const lengthOf = new Map<Node, Node>();
    walk(root, (n) => {
      if (n.type === "MemberExpression" && !n.computed && !n.optional && memberName(n) === "length") lengthOf.set(n.object, n);
    });
    for (const ids of lengths) {
      if (ids.length === 0 || !ids.every((id) => lengthOf.has(id))) continue;
      for (const id of ids) replace.set(lengthOf.get(id)!, literalAt(0, lengthOf.get(id)!));
    }
  }
  if (replace.size === 0) return null;
  changed(replace.size);
  return { leave: (n) => replace.get(n) ?? n };
}
