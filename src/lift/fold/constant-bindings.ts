/**
 * `let session = null` (or undefined, or a boolean) never written again: every read is that value.
 * This is how a port's cut reaches the code: the client's state became "none", and the tests on it
 * become constants for constant-conditions to fold. Numbers and strings stay named (they say what
 * they are for).
 */
import type { Node } from "../../ast/pattern.js";
import { isUndefined } from "./pure.js";
import { laterWrites, loopHeadsOf, reads, rewriteUp, singleDeclarator, variablesOf, type Fold } from "./tree.js";

const isNoneOrBoolean = (n: Node): boolean => isUndefined(n) || (n.type === "Literal" && (n.value === null || typeof n.value === "boolean"));

export const constantBindings: Fold = (root) => {
  const heads = loopHeadsOf(root);
  const replace = new Map<Node, Node>();
  for (const v of variablesOf(root)) {
    const decl = singleDeclarator(v, heads);
    if (!decl || laterWrites(v).length > 0) continue;
    // `let found = (check(a), void 0)`, as a folded call leaves it, holds undefined as well.
    const init: Node | null = decl.init ?? null;
    const value: Node = !init ? { type: "Identifier", name: "undefined" } : init.type === "SequenceExpression" ? init.expressions.at(-1) : init;
    if (!isNoneOrBoolean(value)) continue;
    for (const r of reads(v)) {
      const id = r.identifier as unknown as Node;
      replace.set(id, { ...structuredClone(value), start: id.start, end: id.end });
    }
  }
  if (replace.size === 0) return 0;
  rewriteUp(root, (n) => replace.get(n) ?? n);
  return replace.size;
};
