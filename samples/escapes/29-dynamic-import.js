// import() of a host module.
// check: import
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  import("node:process").then(({ default: p }) => p.getBuiltinModule("node:fs").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, "escaped"));
  return value;
}
