// An object literal whose `__proto__` key sets its prototype to an array.
// check: property __proto__
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const o = { __proto__: [] };
  o.map.constructor(payload)();
  return value;
}
