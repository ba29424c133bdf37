// Function through the array a regular expression's exec returns.
// check: property constructor
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  /(x)/.exec("x").constructor.constructor(payload)();
  return value;
}
