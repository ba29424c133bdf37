// Error.stackTraceLimit: changes every stack the importer makes.
// check: property stackTraceLimit
// lift: refused
// control: none (changes the importer's stacks)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Error.stackTraceLimit = 0;
  return value;
}
