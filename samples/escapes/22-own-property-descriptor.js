// A descriptor's value read past the name check.
// check: property getOwnPropertyDescriptor
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(() => 0), "constructor").value(payload)();
  return value;
}
