/** Shapes of code the reachability analysis recognises: a pattern's path to a name, a helper returning a copy of its parameter, a constructor option, a function that builds a Map. */
import { walk } from "estree-walker";
import type { FunctionNode, Node, NodeOf } from "../ast/pattern.js";
import type { Primitive } from "./known-values.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/**
 * The index of the parameter a function returns a copy of, element by element — its body `return [...p]` or
 * `return [...new Set(p)]` with the global Set — or -1.
 */
export function copiedParam(fn: FunctionNode, globalSet: (id: Node) => boolean): number {
  const body = fn.body as Node;
  const ret =
    body.type === "BlockStatement"
      ? body.body.length === 1 && body.body[0]!.type === "ReturnStatement"
        ? body.body[0].argument
        : null
      : body;
  if (ret?.type !== "ArrayExpression" || ret.elements.length !== 1 || ret.elements[0]?.type !== "SpreadElement") return -1;
  let inner = ret.elements[0].argument as Node;
  if (inner.type === "NewExpression" && inner.callee.type === "Identifier" && inner.arguments.length === 1) {
    if (!globalSet(inner.callee)) return -1;
    inner = inner.arguments[0] as Node;
  }
  if (inner.type !== "Identifier") return -1;
  const name = inner.name;
  return fn.params.findIndex((p) => p.type === "Identifier" && p.name === name);
}

export type Step = { key: string } | { fallback: Node } | { index: number };

/** The keys (and defaults) from a pattern down to the identifier `name`; null through an array or a rest. */
export function patternPath(pattern: Node, name: Node): Step[] | null {
  if (pattern === name) return [];
  if (pattern.type === "AssignmentPattern") {
    const inner = patternPath(pattern.left, name);
    return inner ? [{ fallback: pattern.right as Node }, ...inner] : null;
  }
  if (pattern.type === "ArrayPattern")
    for (const [i, e] of pattern.elements.entries()) {
      if (!e || !contains(e, name)) continue;
      if (e.type === "RestElement") return null;
      const inner = patternPath(e, name);
      return inner ? [{ index: i }, ...inner] : null;
    }
  if (pattern.type === "ObjectPattern")
    for (const p of pattern.properties) {
      if (p.type !== "Property" || !contains(p.value, name)) continue;
      if (p.computed) return null;
      const key = p.key.type === "Identifier" ? p.key.name : String((p.key as { value: unknown }).value);
      const inner = patternPath(p.value, name);
      return inner ? [{ key }, ...inner] : null;
    }
  return null;
}

export function contains(n: Node, inner: Node): boolean {
  return n.start <= inner.start && inner.end <= n.end;
}

/** The constructor parameter that alone sets `field` (`this.f = p`), with the value it has when left out: a falsy default, or undefined. */
export function constructorOption(cls: Node, field: string): { name: string; index: number; value: Primitive } | null {
  const writes: Node[] = [];
  const fieldOf = (e: Node) =>
    e.type === "MemberExpression" && !e.computed && e.object.type === "ThisExpression"
      ? e.property.type === "PrivateIdentifier"
        ? `#${e.property.name}`
        : e.property.type === "Identifier"
          ? e.property.name
          : null
      : null;
  walk(toEstree(cls), {
    enter(raw) {
      const n = fromEstree(raw);
      if (
        (n.type === "AssignmentExpression" && fieldOf(n.left) === field) ||
        (n.type === "UpdateExpression" && fieldOf(n.argument) === field)
      )
        writes.push(n);
    },
  });
  const body = (cls as Node & { body: { body: Node[] } }).body.body;
  // A field's own initialiser sets it too.
  if (
    body.some(
      (m) =>
        m.type === "PropertyDefinition" &&
        m.value &&
        fieldOf({ type: "MemberExpression", computed: false, object: { type: "ThisExpression" }, property: m.key } as unknown as Node) ===
          field,
    )
  )
    return null;
  const ctor = body.find((m) => m.type === "MethodDefinition" && m.kind === "constructor") as (Node & { value: FunctionNode }) | undefined;
  const w = writes[0];
  if (!ctor || writes.length !== 1 || w?.type !== "AssignmentExpression" || w.operator !== "=" || w.right.type !== "Identifier")
    return null;
  if (!(ctor.value.start <= w.start && w.end <= ctor.value.end)) return null;
  const name = w.right.name;
  const index = ctor.value.params.findIndex((p) => {
    const id = p.type === "AssignmentPattern" ? p.left : p;
    return id.type === "Identifier" && id.name === name;
  });
  if (index < 0) return null;
  const p = ctor.value.params[index]!;
  if (p.type !== "AssignmentPattern") return { name, index, value: undefined };
  if (p.right.type === "Literal" && !p.right.value && !("regex" in p.right)) return { name, index, value: p.right.value as Primitive };
  if (p.right.type === "Identifier" && p.right.name === "undefined") return { name, index, value: undefined };
  return null;
}

/** The frame of a function that builds a Map from its one parameter, as map-entries.ts and lookup-shapes.ts read it. */
export interface MapBuilderFrame {
  /** The map's name, where it is declared. */
  map: NodeOf<"Identifier">;
  loop: NodeOf<"ForOfStatement">;
  /** The list the loop goes through. */
  list: NodeOf<"Identifier">;
  /** The name in `return map`. */
  returned: NodeOf<"Identifier">;
}

/**
 * `function (xs) { let m = new Map(); for (… of list) …; return m; }` with the global Map (`variable` finds no
 * binding of its name): its parts, or null. What the loop sets, and whether `list` is the parameter, is the
 * caller's to check.
 */
export function mapBuilderFrame(fn: FunctionNode, variable: (id: Node) => unknown): MapBuilderFrame | null {
  const body = fn.body as Node;
  if (fn.params.length !== 1 || body.type !== "BlockStatement" || body.body.length !== 3) return null;
  const [decl, loop, ret] = body.body as [Node, Node, Node];
  if (decl.type !== "VariableDeclaration" || decl.declarations.length !== 1) return null;
  const d = decl.declarations[0]!;
  const init = d.init as Node | null | undefined;
  if (d.id.type !== "Identifier" || init?.type !== "NewExpression" || init.arguments.length > 0) return null;
  if (init.callee.type !== "Identifier" || init.callee.name !== "Map" || variable(init.callee)) return null;
  if (ret.type !== "ReturnStatement" || ret.argument?.type !== "Identifier" || ret.argument.name !== d.id.name) return null;
  if (loop.type !== "ForOfStatement" || loop.await || loop.right.type !== "Identifier") return null;
  return { map: d.id, loop, list: loop.right, returned: ret.argument };
}
