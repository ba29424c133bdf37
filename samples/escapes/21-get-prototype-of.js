// Object.getPrototypeOf of an async arrow: AsyncFunction.prototype.
// check: property getPrototypeOf
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Object.getPrototypeOf(async () => {}).constructor(payload)();
  return value;
}
