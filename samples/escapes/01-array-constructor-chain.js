// Function through an array literal's constructor's constructor.
// check: property constructor
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  [].constructor.constructor(payload)();
  return value;
}
