// Error.captureStackTrace: the importer's stack frames, file paths included.
// check: property captureStackTrace
// lift: refused
// control: none (reads, writes nothing)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const holder = {};
  Error.captureStackTrace(holder);
  void holder.stack;
  return value;
}
