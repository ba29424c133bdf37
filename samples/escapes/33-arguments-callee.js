// arguments.callee (a TypeError in strict code: refused by name anyway).
// check: property callee
// lift: refused
// control: none (strict code throws)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  function inner() {
    return arguments.callee;
  }
  inner().constructor(payload)();
  return value;
}
