// AsyncGeneratorFunction through an async generator's constructor.
// check: property constructor
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  (async function* () {}).constructor(payload)().next();
  return value;
}
