/**
 * Functions the lift writes into every module it emits that the safety check (safety.ts) trusts
 * as written: their text is compared character for character, and their names may not be
 * reassigned. Anything else in a module is judged by the check's rules.
 */
import { KEY_PORT, KEY_PORT_FUNCTION, READ_PORT, READ_PORT_FUNCTION } from "./key-port.js";

/**
 * The client's state with nothing in it, for the tool's call(): a Proxy answers every property
 * the client's code asks for (the only place a module may use Proxy — it hands out nothing but
 * itself, empty values, and instances of classes the caller passes).
 */
export const EMPTY_STATE_FUNCTION = `function emptyState() {
  return new Proxy(function () {}, {
    get(target, key) {
      if (key === Symbol.iterator) return function* () {};
      if (key === Symbol.toPrimitive) return () => "";
      if (key === "then") return undefined;
      if (key === "length" || key === "size") return 0;
      if (["filter", "map", "flatMap", "slice", "concat"].includes(key)) return () => [];
      if (["some", "includes", "has"].includes(key)) return () => false;
      if (["findIndex", "findLastIndex", "indexOf", "lastIndexOf"].includes(key)) return () => -1;
      if (key === "every") return () => true;
      // A state store keyed by class makes a fresh instance on first use.
      if (key === "get") return (k) => (typeof k === "function" ? new k() : undefined);
      if (["find", "forEach"].includes(key)) return () => undefined;
      return emptyState();
    },
    apply() {
      return emptyState();
    },
  });
}`;

export const TRUSTED_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  [KEY_PORT, KEY_PORT_FUNCTION],
  [READ_PORT, READ_PORT_FUNCTION],
  ["emptyState", EMPTY_STATE_FUNCTION],
]);
