/**
 * Functions written twice: two function declarations of one scope with the same code, reading nothing but
 * their own parameters, are one function. Cuts leave such twins (a helper whose work was a host call becomes
 * `x => x`, beside the identity helper the release already had); the later one's readers read the earlier one.
 */
import type { Scope, Variable } from "eslint-scope";
import { isNode, isPropertyName, type Node } from "../../ast/pattern.js";
import type { Rewrite } from "../../ast/traverse.js";
import { defineFold, variablesOf } from "./tree.js";
import { acornIdentifier, fromEstree } from "../../ast/estree-bridge.js";

export const duplicateFunctions = defineFold({ scope: true, rewrite: (root, changed) => dropTwins(root, changed) });

/** The later of two equal functions in a scope, its readers reading the first. */
function dropTwins(root: Node, changed: (k: number) => void): Rewrite | null {
  // Per scope, the first function of each code.
  const first = new Map<Scope, Map<string, Variable>>();
  const drop = new Set<Node>();
  for (const v of variablesOf(root)) {
    const fn = declaredFunction(v);
    const code = fn && closedCode(fn);
    if (!code) continue;
    let inScope = first.get(v.scope);
    if (!inScope) first.set(v.scope, (inScope = new Map<string, Variable>()));
    const twin = inScope.get(code);
    if (!twin) inScope.set(code, v);
    else if (readersCanRead(v, twin.name, root)) {
      for (const r of v.references) acornIdentifier(r.identifier).name = twin.name;
      drop.add(fn);
    }
  }
  if (drop.size === 0) return null;
  changed(drop.size);
  return { leave: (n) => (drop.has(n) ? null : n) };
}

/** The declaration of a function name that is never assigned. */
function declaredFunction(v: Variable): Node | null {
  if (v.defs.length !== 1 || v.defs[0]!.type !== "FunctionName") return null;
  const fn = fromEstree(v.defs[0]!.node);
  return fn.type === "FunctionDeclaration" && !v.references.some((r) => r.isWrite()) ? fn : null;
}

const MAX_NODES = 40;

/**
 * The code of a function with plain parameters whose body reads no name but theirs, its parameters numbered;
 * null for any other function (what it reads from outside could differ between two copies).
 */
function closedCode(fn: Node): string | null {
  if (fn.type !== "FunctionDeclaration" || !fn.params.every((p) => p.type === "Identifier")) return null;
  // Twins that read nothing from outside are small (what a cut leaves); the scope analysis numbered each
  // node twice in `range`, so a function's size is known without a walk.
  if (fn.range && fn.range[1] - fn.range[0] > 2 * MAX_NODES) return null;
  const params = new Map(fn.params.map((p, i) => [p.name, `#${i}`]));
  let closed = true;
  const text = JSON.stringify(fn.body, function (this: unknown, key, value: unknown) {
    if (!closed || key === "start" || key === "end" || key === "range" || key === "loc" || key === "raw") return undefined;
    if (isNode(value) && value.type === "Identifier" && !isPropertyName(this as Node, key)) {
      const param = params.get(value.name);
      if (param === undefined) closed = false;
      return param;
    }
    return value;
  });
  return closed ? `${fn.async} ${fn.generator} ${fn.params.length} ${text}` : null;
}

/**
 * Whether every reader of `v` sees `name` as the twin: no scope between a reader and the declarations binds
 * `name` again, and no reader is what the root function itself returns by name (its uses, read outside).
 */
function readersCanRead(v: Variable, name: string, root: Node): boolean {
  const returned = returnedByName(root);
  return v.references.every((r) => {
    if (returned.has(fromEstree(r.identifier))) return false;
    for (let s: Scope | null = r.from; s && s !== v.scope; s = s.upper) if (s.set.has(name)) return false;
    return true;
  });
}

/** The names the root function's own body returns: `return x` and `return [x, y]`. */
function returnedByName(root: Node): Set<Node> {
  const out = new Set<Node>();
  const body = root.type === "FunctionExpression" || root.type === "FunctionDeclaration" ? root.body.body : [];
  for (const s of body) {
    const value = s.type === "ReturnStatement" ? s.argument : null;
    for (const n of value?.type === "ArrayExpression" ? value.elements : [value]) if (n?.type === "Identifier") out.add(n);
  }
  return out;
}
