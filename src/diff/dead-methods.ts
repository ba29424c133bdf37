/**
 * Methods of a class that no code of the module can call: no property of that name is read anywhere, but on a
 * private field that holds a Map or a Set of its own (`this.#descriptions.clear()` is the Map's `clear`). A
 * method is only reached through its name: a computed read (`o[k]`) could name it, so a module with one outside
 * the lift's own `readProperty` (which refuses an inherited function, as every method is) has no dead methods;
 * neither has one that takes the name apart in a pattern (`let { clear } = cache`). Methods the engine or the
 * host call by name (`then`, `toString`, `toJSON`, an iterator's `next`, …) are never said dead.
 *
 *   class DescriptionCache {
 *     #descriptions = new Map();
 *     clear() { this.#descriptions.clear(); }   // dead: `.clear` is read only on `this.#descriptions`, a Map
 *     describe(name) { … }
 *   }
 */
import { walk } from "estree-walker";
import type { Node } from "../ast/pattern.js";
import { READ_PORT } from "../lift/key-port.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** Names the engine, the host or a protocol calls without the module naming them. */
export const CALLED_BY_NAME = new Set([
  "constructor",
  "then",
  "toString",
  "valueOf",
  "toJSON",
  "toLocaleString",
  "next",
  "return",
  "throw",
  "handleEvent",
]);
/** Built-in collections a private field may hold whose own methods share names with a class's. */
const COLLECTIONS = new Set(["Map", "Set", "WeakMap", "WeakSet"]);

/** The body of each method no code can call, with why. `global(id)`: whether an identifier names the global. */
export function deadMethods(ast: Node, global: (id: Node) => boolean): Array<[Node, string]> {
  const reads: Array<{ name: string; receiver: Node }> = [];
  const methods: Array<{ cls: string; name: string; body: Node }> = [];
  const collectionFields = new Set<string>();
  const writtenFields = new Set<string>();
  let open = false;
  let inReadPort = 0;
  walk(toEstree(ast), {
    enter(raw) {
      const n = fromEstree(raw);
      if (n.type === "FunctionDeclaration" && n.id?.name === READ_PORT) inReadPort++;
      if (n.type === "MemberExpression") {
        if (n.computed && n.property.type !== "Literal" && inReadPort === 0) open = true;
        else if (!n.computed && n.property.type === "Identifier") reads.push({ name: n.property.name, receiver: n.object });
        else if (n.computed && n.property.type === "Literal") reads.push({ name: String(n.property.value), receiver: n.object });
      }
      if (n.type === "ObjectPattern")
        for (const p of n.properties) if (p.type !== "RestElement") reads.push({ name: keyName(p.key, p.computed) ?? "", receiver: n });
      if (n.type === "ObjectPattern" && n.properties.some((p) => p.type === "RestElement" || p.computed)) open = true;
      if (
        (n.type === "AssignmentExpression" || n.type === "UpdateExpression") &&
        privateName(n.type === "AssignmentExpression" ? n.left : n.argument)
      )
        writtenFields.add(privateName(n.type === "AssignmentExpression" ? n.left : n.argument)!);
      if (
        n.type === "PropertyDefinition" &&
        n.key.type === "PrivateIdentifier" &&
        !n.static &&
        isCollection(n.value as Node | null, global)
      )
        collectionFields.add(`#${n.key.name}`);
      if ((n.type === "ClassDeclaration" || n.type === "ClassExpression") && n.body)
        for (const m of n.body.body)
          if (m.type === "MethodDefinition" && m.kind === "method" && !m.static && !m.computed && m.key.type === "Identifier")
            methods.push({ cls: n.id?.name ?? "a class", name: m.key.name, body: m.value.body });
    },
    leave(raw) {
      const n = fromEstree(raw);
      if (n.type === "FunctionDeclaration" && n.id?.name === READ_PORT) inReadPort--;
    },
  });
  if (open) return [];
  const ownCollection = (receiver: Node) => {
    const f = privateName(receiver);
    return (
      receiver.type === "MemberExpression" &&
      receiver.object.type === "ThisExpression" &&
      f !== null &&
      collectionFields.has(f) &&
      !writtenFields.has(f)
    );
  };
  return methods
    .filter((m) => !CALLED_BY_NAME.has(m.name) && reads.every((r) => r.name !== m.name || ownCollection(r.receiver)))
    .map((m) => {
      const on = reads.filter((r) => r.name === m.name).map((r) => `\`this.${privateName(r.receiver)}\``);
      const only = on.length ? ` (\`.${m.name}\` is read only on ${[...new Set(on)].join(", ")}, a collection of its own)` : "";
      return [m.body, `reachable only when \`${m.name}\` of ${m.cls} is called — no code of the module calls it${only}`];
    });
}

function keyName(key: Node, computed: boolean): string | null {
  if (!computed && key.type === "Identifier") return key.name;
  return key.type === "Literal" ? String(key.value) : null;
}

/** `#f` for `x.#f`, else null. */
function privateName(n: Node): string | null {
  return n.type === "MemberExpression" && n.property.type === "PrivateIdentifier" ? `#${n.property.name}` : null;
}

/** `new Map()` (or Set, WeakMap, WeakSet) of the global, empty. */
function isCollection(v: Node | null, global: (id: Node) => boolean): boolean {
  return (
    v?.type === "NewExpression" &&
    v.callee.type === "Identifier" &&
    COLLECTIONS.has(v.callee.name) &&
    v.arguments.length === 0 &&
    global(v.callee)
  );
}
