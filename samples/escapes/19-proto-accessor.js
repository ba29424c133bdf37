// `({}).__proto__` to Object.prototype, then its constructor's constructor.
// check: property __proto__
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  ({}).__proto__.constructor.constructor(payload)();
  return value;
}
