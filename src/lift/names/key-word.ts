import type { Node } from "../../ast/pattern.js";

/** A property key as a variable name (`max_results` → maxResults), when it is a word of three letters or more. */
export function keyWord(key: Node | null | undefined): string | null {
  if (!key) return null;
  const raw = key.type === "Identifier" ? key.name : key.type === "Literal" && typeof key.value === "string" ? key.value : null;
  if (!raw || !/^[A-Za-z][A-Za-z0-9_]*$/.test(raw)) return null;
  const camel = raw.replace(/_+([a-zA-Z0-9])/g, (_m: string, c: string) => c.toUpperCase()).replace(/_/g, "");
  const name = camel[0]!.toLowerCase() + camel.slice(1);
  return name.length >= 3 ? name : null;
}
