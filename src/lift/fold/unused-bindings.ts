/**
 * Bindings nobody reads: `let v = () => void 0` once its calls are gone, `let a = null` once its
 * tests are folded. A declarator goes when its initialiser is pure and nothing writes the binding
 * later; a key destructured into a binding nobody reads leaves the pattern (the rest of the pattern
 * still destructures the value, so a null still throws there).
 */
import type { VariableDeclaration, VariableDeclarator } from "acorn";
import { fieldsOf, type Node } from "../../ast/pattern.js";
import { effectsOf, isPure, withEffects } from "./pure.js";
import type { Rewrite } from "../../ast/traverse.js";
import { defineFold, laterWrites, loopHeadsOf, reads, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

export const unusedBindings = defineFold({ scope: true, after: ["copyBindings"], rewrite: (root, changed) => dropUnused(root, changed) });

function dropUnused(root: Node, changed: (k?: number) => void): Rewrite | null {
  const heads = loopHeadsOf(root);
  const dropDeclarators = new Set<Node>();
  const dropProperties = new Set<Node>();
  for (const v of variablesOf(root)) {
    if (v.defs.length !== 1 || v.defs[0]!.type !== "Variable" || reads(v).length > 0 || laterWrites(v).length > 0) continue;
    const decl = fromEstree(v.defs[0]!.node) as VariableDeclarator;
    if (heads.has(fromEstree(v.defs[0]!.parent))) continue;
    if (decl.id.type === "Identifier") {
      dropDeclarators.add(decl);
      continue;
    }
    const property = destructuredProperty(decl.id, fromEstree(v.defs[0]!.name));
    if (property) dropProperties.add(property);
  }
  if (dropDeclarators.size === 0 && dropProperties.size === 0) return null;
  const leave = (n: Node): Node => {
    if (n.type === "ObjectPattern" && !n.properties.some((p: Node) => p.type === "RestElement")) {
      const kept = n.properties.filter((p: Node) => !dropProperties.has(p));
      // An empty pattern would still throw on null, but reads as a mistake: one key stays.
      const keep = kept.length > 0 ? kept : n.properties.slice(-1);
      changed(n.properties.length - keep.length);
      n.properties = keep;
    }
    const key = n.type === "BlockStatement" ? "body" : n.type === "SwitchCase" ? "consequent" : null;
    if (key)
      fieldsOf(n)[key] = (fieldsOf(n)[key] as Node[]).flatMap((s: Node) =>
        s.type === "VariableDeclaration" ? dropUnread(s, dropDeclarators, changed) : [s],
      );
    return n;
  };
  return { leave };
}

/**
 * A declaration without its unread declarators (`dropped`). Where one's initialiser has an effect,
 * the declaration splits around it and the effect stays as a statement, in the same order.
 */
function dropUnread(declaration: VariableDeclaration, dropped: Set<Node>, counted: () => void): Node[] {
  // Left as it is (the same node) when it keeps every declarator: folds that found nothing to do leave the tree unchanged.
  if (!declaration.declarations.some((d) => dropped.has(d))) return [declaration];
  const out: Node[] = [];
  let run: VariableDeclarator[] = [];
  const flush = () => {
    if (run.length > 0) out.push({ ...declaration, declarations: run });
    run = [];
  };
  for (const d of declaration.declarations) {
    if (!dropped.has(d)) {
      run.push(d);
      continue;
    }
    counted();
    const effects = d.init ? effectsOf(d.init) : [];
    if (effects.length === 0) continue;
    flush();
    out.push({ type: "ExpressionStatement", expression: withEffects(effects.slice(0, -1), effects.at(-1)!), start: d.start, end: d.end });
  }
  flush();
  return out;
}

/**
 * The property `{ key: name }` or `{ key: name = pure }` directly in the top object pattern of a
 * declarator that binds `name`, with a key that is not computed; null otherwise.
 */
function destructuredProperty(pattern: Node, name: Node): Node | null {
  if (pattern.type !== "ObjectPattern") return null;
  for (const p of pattern.properties) {
    if (p.type !== "Property" || p.computed) continue;
    const value = p.value.type === "AssignmentPattern" && isPure(p.value.right) ? p.value.left : p.value;
    if (value === name) return p;
  }
  return null;
}
