/**
 * Property names the safety check (safety.ts) and the key port (key-port.ts) judge code by.
 */
import { BUILTINS } from "./globals.js";

/**
 * Names whose property leads from any value to a constructor (and so to `Function`), to a
 * prototype, to the caller's frames or to the engine's stack hooks; and the reflective calls that
 * read or set prototypes and descriptors. Emitted code may not name them in any way, and a
 * computed key is refused at run time when it converts to one of them.
 */
export const FORBIDDEN_PROPERTIES: readonly string[] = [
  "constructor",
  "prototype",
  "__proto__",
  "caller",
  "callee",
  "arguments",
  "prepareStackTrace",
  "captureStackTrace",
  "stackTraceLimit",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "getPrototypeOf",
  "setPrototypeOf",
  "defineProperty",
  "defineProperties",
  "getOwnPropertyDescriptor",
  "getOwnPropertyDescriptors",
];
export const FORBIDDEN_PROPERTY_SET: ReadonlySet<string> = new Set(FORBIDDEN_PROPERTIES);

/** RegExp's legacy statics: the last match of any regular expression in the realm, the host's included. */
export const REGEXP_LEGACY = new Set([
  "input",
  "$_",
  "lastMatch",
  "$&",
  "lastParen",
  "$+",
  "leftContext",
  "$`",
  "rightContext",
  "$'",
  "$1",
  "$2",
  "$3",
  "$4",
  "$5",
  "$6",
  "$7",
  "$8",
  "$9",
]);

/**
 * Names under which the built-ins hold objects or functions (`includes`, `call`, `max`, `next`,
 * `Collator`, …): a shared built-in reached as a value could be given own properties that the
 * importer's code then calls (`hasOwnProperty.call = …`). Emitted code may only call what it reads
 * under these names, and never assign them. Gathered from this engine's built-ins, with fixed lists
 * of the names most code calls and of those later engines add, so that an engine missing some
 * still refuses those.
 */
const ALWAYS_MEMBER_NAMES = [
  "call",
  "apply",
  "bind",
  "toString",
  "toLocaleString",
  "valueOf",
  "toJSON",
  "then",
  "catch",
  "finally",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "next",
  "return",
  "throw",
];

/**
 * Methods that later editions and proposals add where a module can reach them — on the globals it
 * may name, and on the prototypes of values it can make (set methods, iterator helpers, base64,
 * upsert, …): a module checked under this engine may be imported into a newer one, where these
 * names hold shared built-ins too.
 */
const LATER_MEMBER_NAMES = [
  "union",
  "intersection",
  "difference",
  "symmetricDifference",
  "isSubsetOf",
  "isSupersetOf",
  "isDisjointFrom",
  "map",
  "filter",
  "take",
  "drop",
  "flatMap",
  "reduce",
  "toArray",
  "forEach",
  "some",
  "every",
  "find",
  "from",
  "chunks",
  "windows",
  "fromAsync",
  "groupBy",
  "withResolvers",
  "try",
  "escape",
  "sumPrecise",
  "f16round",
  "clamp",
  "isError",
  "fromBase64",
  "fromHex",
  "toBase64",
  "toHex",
  "setFromBase64",
  "setFromHex",
  "transfer",
  "transferToFixedLength",
  "resize",
  "isWellFormed",
  "toWellFormed",
  "toReversed",
  "toSorted",
  "toSpliced",
  "with",
  "findLast",
  "findLastIndex",
  "getFloat16",
  "setFloat16",
  "rawJSON",
  "isRawJSON",
  "getOrInsert",
  "getOrInsertComputed",
  "dedent",
  "DurationFormat",
];
export const BUILTIN_MEMBER_NAMES: ReadonlySet<string> = builtinMemberNames();

function builtinMemberNames(): Set<string> {
  const names = new Set([...ALWAYS_MEMBER_NAMES, ...LATER_MEMBER_NAMES]);
  const seen = new Set<unknown>();
  const visit = (o: unknown): void => {
    if ((typeof o !== "object" && typeof o !== "function") || o === null || seen.has(o)) return;
    seen.add(o);
    for (const key of Object.getOwnPropertyNames(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (!d || !("value" in d)) continue;
      if (typeof d.value === "function" || (typeof d.value === "object" && d.value !== null)) {
        names.add(key);
        visit(d.value);
      }
    }
    visit(Object.getPrototypeOf(o));
  };
  const global = globalThis as unknown as Record<string, unknown>;
  for (const name of BUILTINS) visit(global[name]);
  // Prototypes only reachable through values: iterators, generators, async functions.
  visit([][Symbol.iterator]());
  visit(new Map().entries());
  visit("".matchAll(/x/g));
  visit((function* () {})());
  visit((async function* () {})());
  visit(async () => {});
  for (const f of FORBIDDEN_PROPERTIES) names.delete(f);
  return names;
}
