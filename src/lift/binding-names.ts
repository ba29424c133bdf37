import type { Node } from "../ast/pattern.js";

/** Add every name a binding pattern binds (`a`, `{ b, c: [d] }`, `e = 1`, `...f`) to `out`. */
export function addBindingNames(pattern: Node | null | undefined, out: Set<string>): void {
  if (!pattern) return;
  if (pattern.type === "Identifier") out.add(pattern.name);
  else if (pattern.type === "ObjectPattern")
    pattern.properties.forEach((q) => addBindingNames(q.type === "RestElement" ? q.argument : q.value, out));
  else if (pattern.type === "ArrayPattern") pattern.elements.forEach((e: Node | null) => addBindingNames(e, out));
  else if (pattern.type === "AssignmentPattern") addBindingNames(pattern.left, out);
  else if (pattern.type === "RestElement") addBindingNames(pattern.argument, out);
}
