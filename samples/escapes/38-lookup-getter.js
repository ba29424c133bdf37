// `__lookupGetter__` of `__proto__` on an array: Array.prototype.
// check: property __lookupGetter__
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  [].__lookupGetter__("__proto__").call([]).constructor.constructor(payload)();
  return value;
}
