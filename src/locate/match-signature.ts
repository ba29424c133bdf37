import { findAll, matchNode, walk, type Bindings, type Node, type Pattern } from "../ast/pattern.js";
import type { Signature, Variant } from "./signature.js";

/** Nodes of a parsed module grouped by type, built once so every anchor looks only at its own kind. */
export type TypeIndex = Map<string, Node[]>;

export function indexByType(ast: Node): TypeIndex {
  const idx: TypeIndex = new Map();
  walk(ast, (n) => {
    let list = idx.get(n.type);
    if (!list) idx.set(n.type, (list = []));
    list.push(n);
  });
  return idx;
}

export interface VariantMatch {
  variant: string;
  node: Node;
  bindings: Bindings;
}

/**
 * Every node of the module that matches one of the signature's variants. Variants are tried in
 * order and a node is reported once, under the first variant that accepts it. Linked variants are
 * left out: alone, without the routine they are linked to, they accept look-alikes (locate.ts).
 */
export function matchSignature(sig: Signature, index: TypeIndex): VariantMatch[] {
  const out: VariantMatch[] = [];
  const claimed = new Set<Node>();
  for (const v of sig.variants.filter((x) => !x.linked)) {
    for (const m of matchVariant(v, index)) {
      if (claimed.has(m.node)) continue;
      claimed.add(m.node);
      out.push(m);
    }
  }
  return out.sort((a, b) => a.node.start - b.node.start);
}

/** Every node that one variant accepts: an anchor matches it, its `has` patterns do, its `not` patterns don't. */
export function matchVariant(v: Variant, index: TypeIndex): VariantMatch[] {
  const out: VariantMatch[] = [];
  const seen = new Set<Node>();
  for (const anchor of v.anchors) {
    for (const node of candidates(index, anchor)) {
      if (seen.has(node)) continue;
      const b0 = matchNode(anchor.root, node, new Map());
      if (!b0) continue;
      const b = satisfies(v, node, b0);
      if (b) {
        seen.add(node);
        out.push({ variant: v.name, node, bindings: b });
      }
    }
  }
  return out;
}

function candidates(index: TypeIndex, p: Pattern): Node[] {
  const t = p.root.type;
  if (t === "Identifier" || t === "ExpressionStatement") return [...index.values()].flat(); // a bare metavariable
  const own = index.get(t) ?? [];
  if (t !== "FunctionDeclaration") return own;
  // A routine may be written as a method (of a class, static or not, or of an object literal): each is
  // tried as the function declaration it would be, named by its key.
  const methods = [...(index.get("MethodDefinition") ?? []), ...(index.get("Property") ?? [])].flatMap((n) => {
    const f = methodAsFunction(n);
    return f ? [f] : [];
  });
  return methods.length ? [...own, ...methods] : own;
}

/** What a method is a declaration of: made once per method node, so that every variant sees the same node. */
const asFunction = new WeakMap<Node, Node | null>();

/** Marks a FunctionDeclaration made from a method (methodAsFunction): the method node it stands for. */
export const METHOD_OF = Symbol("method of");

/**
 * `async run(q, tools) { … }` (in a class or an object literal, or `run: async function (…) { … }`) as
 * `async function run(q, tools) { … }`: the same parameters and body, spanning the whole method, with the
 * method node under METHOD_OF. null for getters, setters, constructors, computed and private keys.
 */
export function methodAsFunction(n: Node): Node | null {
  if (asFunction.has(n)) return asFunction.get(n)!;
  let out: Node | null = null;
  if (n.type === "MethodDefinition" || n.type === "Property") {
    const plain = n.type === "MethodDefinition" ? n.kind === "method" : n.kind === "init";
    if (plain && !n.computed && n.key.type === "Identifier" && n.value.type === "FunctionExpression") {
      out = { ...n.value, type: "FunctionDeclaration", id: n.key, start: n.start, end: n.end };
      if (n.range) out.range = n.range;
      Object.defineProperty(out, METHOD_OF, { value: n });
    }
  }
  asFunction.set(n, out);
  return out;
}

/** `has` patterns matched inside `node` in order with shared bindings (backtracking), then no `not` pattern. */
function satisfies(v: Variant, node: Node, env: Bindings): Bindings | null {
  const go = (i: number, b: Bindings): Bindings | null => {
    if (i === v.has.length) return v.not.some((p) => findAll(node, p, b).length > 0) ? null : b;
    for (const m of findAll(node, v.has[i]!, b)) {
      const r = go(i + 1, m.bindings);
      if (r) return r;
    }
    return null;
  };
  return go(0, env);
}

/** Role name → bound identifier name, for the metavariables the signature names. */
export function roleNames(sig: Signature, b: Bindings): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [meta, role] of Object.entries(sig.roles)) {
    const v = b.get(meta);
    if (v && !Array.isArray(v) && v.type === "Identifier") out[role] = v.name;
    else if (v && !Array.isArray(v) && v.type === "PrivateIdentifier") out[role] = `#${v.name}`;
  }
  return out;
}
