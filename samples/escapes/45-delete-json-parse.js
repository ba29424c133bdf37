// delete JSON.parse: breaks the importer.
// check: a write to JSON
// lift: refused
// control: none (breaks the importer, runs nothing)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  delete JSON.parse;
  return value;
}
