/**
 * The syntax the tool-field analysis (tool-fields.ts) reads: the function a node is, a method and its name, the
 * keys of an object pattern and of a member read, whether a key is constant, the root of a member chain and the
 * identifiers a pattern binds.
 */
import { isFunction, memberName, type FunctionNode, type Node } from "../../ast/pattern.js";

/** The function of a root as assembled: a declaration or a function-valued declarator. */
export function functionOf(n: Node): FunctionNode | null {
  if (isFunction(n)) return n;
  if (n.type === "VariableDeclaration") {
    const init = n.declarations[0]?.init;
    return init && isFunction(init) ? init : null;
  }
  return null;
}

/** A method definition's name and function: class methods, object literal methods, `X.prototype.m = function`. */
export function methodOf(n: Node): { name: string; fn: Node } | null {
  if ((n.type === "MethodDefinition" || n.type === "Property") && !n.computed && isFunction(n.value)) {
    const name = propertyKeyName(n.key);
    return name === null ? null : { name, fn: n.value as Node };
  }
  if (n.type === "AssignmentExpression" && n.left.type === "MemberExpression" && isFunction(n.right)) {
    const name = propertyKey(n.left);
    return name === null ? null : { name, fn: n.right };
  }
  return null;
}

/** The name a pattern's property reads: `{ x }`, `{ "x": y }`, `{ ["x"]: y }`; null when computed otherwise. */
export function patternKey(p: Node & { type: "Property" }): string | null {
  if (p.computed) return p.key.type === "Literal" && typeof p.key.value === "string" ? p.key.value : null;
  return p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
}

/** The names an object pattern reads. */
export function patternKeys(n: Node & { type: "ObjectPattern" }): string[] {
  return n.properties.flatMap((p) => {
    const key = p.type === "Property" ? patternKey(p) : null;
    return key === null ? [] : [key];
  });
}

export function propertyKeyName(key: Node): string | null {
  if (key.type === "Identifier") return key.name;
  if (key.type === "Literal" && (typeof key.value === "string" || typeof key.value === "number")) return String(key.value);
  return null;
}

/** The property a member expression names by a constant: `o.x`, `o?.x`, `o["x"]`. */
export function propertyKey(m: Node & { type: "MemberExpression" }): string | null {
  if (!m.computed) return memberName(m) ?? null;
  return m.property.type === "Literal" && typeof m.property.value === "string" ? m.property.value : null;
}

export function isConstantKey(k: Node): boolean {
  return k.type === "Literal" && typeof k.value === "string";
}

export function chainRoot(e: Node): Node {
  let cur = e;
  while (cur.type === "MemberExpression" || cur.type === "ChainExpression")
    cur = cur.type === "ChainExpression" ? cur.expression : cur.object;
  return cur;
}

/** The identifiers a binding pattern declares. */
export function patternIdentifiers(p: Node | null | undefined): Node[] {
  if (!p) return [];
  switch (p.type) {
    case "Identifier":
      return [p];
    case "AssignmentPattern":
      return patternIdentifiers(p.left);
    case "RestElement":
      return patternIdentifiers(p.argument);
    case "ArrayPattern":
      return p.elements.flatMap((e) => patternIdentifiers(e));
    case "ObjectPattern":
      return p.properties.flatMap((q) => patternIdentifiers(q.type === "RestElement" ? q : q.value));
    default:
      return [];
  }
}
