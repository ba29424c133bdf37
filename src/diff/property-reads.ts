/**
 * Every place the module reads a property by a given name: a method is reached only through such a read, so
 * when each of them is known, so is every call of the method (fresh-instance.ts, own-element-lookup.ts). A read
 * by a computed key (`o[k]`, outside the lift's own `readProperty`) or a pattern with a rest or a computed key
 * could name any property, `Object.values` (or `entries`, `getOwnPropertyDescriptor(s)`) hands out every
 * property's value, and `Object.assign` (or `defineProperty`, `setPrototypeOf`, anything of `Reflect`) writes them:
 * the module is then open, and no read is known. A string equal to the name, used as
 * anything but a key, counts as a read too (it could be handed to `Reflect.get`), but in the lift's own key port,
 * whose strings are the keys it refuses.
 */
import { walk } from "estree-walker";
import { memberName, type Node } from "../ast/pattern.js";
import { KEY_PORT, READ_PORT } from "../lift/key-port.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** What hands out, or writes, the values of an object's properties without naming them. */
const SPILLS = new Set([
  "values",
  "entries",
  "getOwnPropertyDescriptor",
  "getOwnPropertyDescriptors",
  "assign",
  "defineProperty",
  "defineProperties",
  "setPrototypeOf",
]);

/** The reads of each property name (a member expression, or an object pattern's property), or null when open. */
export function propertyReads(ast: Node): Map<string, Node[]> | null {
  const reads = new Map<string, Node[]>();
  const add = (name: string, at: Node) => reads.set(name, [...(reads.get(name) ?? []), at]);
  let open = false;
  let inReadPort = 0;
  let inKeyPort = 0;
  walk(toEstree(ast), {
    enter(raw, parent) {
      const n = fromEstree(raw);
      const p = parent ? fromEstree(parent) : null;
      const asKey =
        ((p?.type === "Property" || p?.type === "MethodDefinition" || p?.type === "PropertyDefinition") && p.key === n) ||
        (p?.type === "MemberExpression" && p.property === n);
      if (n.type === "FunctionDeclaration" && n.id?.name === READ_PORT) inReadPort++;
      if (n.type === "FunctionDeclaration" && n.id?.name === KEY_PORT) inKeyPort++;
      if (n.type === "Literal" && typeof n.value === "string" && !asKey && inKeyPort === 0) add(n.value, n);
      if (n.type === "MemberExpression") {
        if (!n.computed && n.property.type === "Identifier") add(n.property.name, n);
        else if (n.computed && n.property.type === "Literal") add(String(n.property.value), n);
        else if (n.computed && inReadPort === 0) open = true;
        if (n.object.type === "Identifier" && n.object.name === "Object" && SPILLS.has(memberName(n) ?? "")) open = true;
        if (n.object.type === "Identifier" && n.object.name === "Reflect") open = true;
      }
      if (n.type === "ObjectPattern")
        for (const p of n.properties) {
          if (p.type === "RestElement" || p.computed) open = true;
          else if (p.key.type === "Identifier") add(p.key.name, p);
          else if (p.key.type === "Literal") add(String(p.key.value), p);
        }
    },
    leave(raw) {
      const n = fromEstree(raw);
      if (n.type === "FunctionDeclaration" && n.id?.name === READ_PORT) inReadPort--;
      if (n.type === "FunctionDeclaration" && n.id?.name === KEY_PORT) inKeyPort--;
    },
  });
  return open ? null : reads;
}
