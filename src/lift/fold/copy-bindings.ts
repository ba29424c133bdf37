/**
 * A binding that only copies another — `let pool = tools`, as an identity call leaves it — is that
 * other binding: where neither is ever written again, reads of the copy become reads of the
 * original (when the original's name means the same binding at each read), and the copy is then
 * unread for unused-bindings to drop.
 */
import type { Scope, Variable } from "eslint-scope";
import type { VariableDeclaration } from "acorn";
import type { Node } from "../../ast/pattern.js";
import type { Rewrite } from "../../ast/traverse.js";
import { defineFold, laterWrites, loopHeadsOf, reads, singleDeclarator, variablesOf } from "./tree.js";
import { acornIdentifier, fromEstree } from "../../ast/estree-bridge.js";

/** The variable `name` means in `scope`, or null for a free name. */
function lookup(scope: Scope | null, name: string): Variable | null {
  for (let s = scope; s; s = s.upper) {
    const v = s.set.get(name);
    if (v) return v;
  }
  return null;
}

/**
 * Declared once and never written after, and not by `var`: a var can be read before its
 * initialiser runs (undefined then, its value later), a let or const cannot.
 */
const fixed = (v: Variable): boolean =>
  v.defs.length === 1 &&
  laterWrites(v).length === 0 &&
  ["Parameter", "FunctionName", "Variable"].includes(v.defs[0]!.type) &&
  (fromEstree(v.defs[0]!.parent) as VariableDeclaration | null)?.kind !== "var";

export const copyBindings = defineFold({ scope: true, after: ["identityCalls"], rewrite: (root, changed) => readOriginals(root, changed) });

/** The reads of copies as reads of the originals. */
function readOriginals(root: Node, changed: (k: number) => void): Rewrite | null {
  const heads = loopHeadsOf(root);
  const replace = new Map<Node, Node>();
  let copies = 0;
  for (const v of variablesOf(root)) {
    const init = singleDeclarator(v, heads)?.init;
    if (init?.type !== "Identifier" || init.name === "undefined" || !fixed(v)) continue;
    const declaration = v.references.find((r) => r.init);
    const original = lookup(declaration?.from ?? null, init.name);
    // A free name (a global) is left alone: it may be shadowed nowhere, but it may not exist either.
    if (!original || original === v || !fixed(original)) continue;
    const at = reads(v);
    if (at.length === 0 || !at.every((r) => lookup(r.from, init.name) === original)) continue;
    copies++;
    for (const r of at) {
      const id = acornIdentifier(r.identifier);
      replace.set(id, { ...id, name: init.name });
    }
  }
  if (replace.size === 0) return null;
  changed(copies);
  return { leave: (n) => replace.get(n) ?? n };
}
