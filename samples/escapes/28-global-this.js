// globalThis.process directly.
// check: globalThis
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  globalThis.process.getBuiltinModule("node:fs").writeFileSync(globalThis.process.env.SEARCHLIFT_ESCAPE_MARKER, "escaped");
  return value;
}
