/**
 * A value used only to look something up: every use of it is the key of a `.get`, `.set`, `.has` or `.delete`
 * call, so it is a key, whatever text it is made of. One that is both read and written under is a cache's key.
 *
 *   let message = loaded ? `loaded\x00${name}` : name;   →   let cacheKey = loaded ? `loaded\x00${name}` : name;
 *   let result = this.#descriptions.get(message);             let result = this.#descriptions.get(cacheKey);
 *   this.#descriptions.set(message, promptResult);            this.#descriptions.set(cacheKey, promptResult);
 */
import { memberName } from "../../ast/pattern.js";
import type { Rule } from "./rule.js";

const LOOKUPS = /^(get|set|has|delete)$/;

export const mapKey: Rule = (b, ctx) => {
  if (b.kind !== "variable" || b.iterates || b.uses.length === 0) return null;
  const methods = new Set<string>();
  for (const u of b.uses) {
    const call = ctx.parent(u);
    if (call?.type !== "CallExpression" || call.arguments[0] !== u || call.callee.type !== "MemberExpression") return null;
    const method = memberName(call.callee);
    if (!method || !LOOKUPS.test(method)) return null;
    methods.add(method);
  }
  return methods.has("get") && methods.has("set") ? "cacheKey" : "key";
};
