// A function's caller (a TypeError in strict code: refused by name anyway).
// check: property caller
// lift: refused
// control: none (strict code throws)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  function inner() {
    return inner.caller;
  }
  inner();
  return value;
}
