/**
 * A name for a helper that depends on its code alone: `helper_3fa2` for the same function in any
 * release or platform build, whatever the minifier called it and whatever else the closure holds —
 * so that a diff of two lifted modules shows the helpers that changed, not a renumbering.
 */
import { createHash } from "node:crypto";
import { generate } from "astring";
import { fieldsOf, walk, type Node } from "../ast/pattern.js";
import { BUILTINS } from "./globals.js";

/** Four hex digits of a hash of the code with every name but built-ins replaced by its order of first use. */
export function codeTag(node: Node): string {
  return codeShape(node, 4);
}

/** `digits` hex digits of that hash: the key of a helper in a names file. */
export function codeShape(node: Node, digits = 12): string {
  const copy = structuredClone<Node>(node);
  const order = new Map<string, string>();
  walk(copy, (n) => {
    if (n.type === "MemberExpression" && !n.computed && n.property.type === "Identifier")
      fieldsOf(n).property = { ...n.property, type: "PropertyName" };
    if (
      (n.type === "Property" || n.type === "MethodDefinition" || n.type === "PropertyDefinition") &&
      !n.computed &&
      n.key.type === "Identifier"
    ) {
      if (n.type === "Property" && n.shorthand) n.shorthand = false;
      fieldsOf(n).key = { ...n.key, type: "PropertyName" };
    }
  });
  walk(copy, (n) => {
    if (n.type === "Identifier" && !BUILTINS.has(n.name)) {
      if (!order.has(n.name)) order.set(n.name, `_${order.size}`);
      n.name = order.get(n.name)!;
    }
    // "PropertyName" is no ESTree type: it marks, for this hash only, a name that is not renamed.
    const fields = fieldsOf(n);
    if (fields.type === "PropertyName") fields.type = "Identifier";
  });
  const text = generate(asGeneratable(copy));
  return createHash("sha256").update(text).digest("hex").slice(0, digits);
}

/** astring prints statements and expressions; a declarator or a method is printed inside a holder. */
function asGeneratable(n: Node): Node {
  if (n.type === "VariableDeclarator") return { type: "VariableDeclaration", kind: "let", declarations: [n], start: n.start, end: n.end };
  if (n.type === "Property" || n.type === "MethodDefinition")
    return {
      type: "ExpressionStatement",
      expression: {
        type: "ObjectExpression",
        properties: [{ ...n, type: "Property", kind: n.kind === "method" || n.kind === "constructor" ? "init" : n.kind }],
      },
      start: n.start,
      end: n.end,
    } as Node;
  if (n.type === "AssignmentExpression" || n.type.endsWith("Expression"))
    return { type: "ExpressionStatement", expression: n, start: n.start, end: n.end } as Node;
  return n;
}
