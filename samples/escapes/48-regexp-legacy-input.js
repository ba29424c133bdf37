// RegExp.input: the last string any regular expression matched, the importer's included.
// check: RegExp.input
// lift: refused
// control: none (reads, writes nothing)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  void RegExp.input;
  return value;
}
