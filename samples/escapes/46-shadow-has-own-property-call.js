// No constructor at all: an own `call` on Object.prototype.hasOwnProperty; the importer's `hasOwnProperty.call(process, …)` hands it process.
// check: .hasOwnProperty as a value
// lift: refused
// control: escapes (when the importer uses hasOwnProperty.call)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const hasOwn = ({}).hasOwnProperty;
  hasOwn.call = (target) => target.getBuiltinModule("node:fs").writeFileSync(target.env.SEARCHLIFT_ESCAPE_MARKER, "escaped");
  return value;
}
