// A logical assignment by a run-time key whose value is the inherited hasOwnProperty, then given an own `call`.
// check: the value of a logical assignment by a run-time key
// lift: refused
// control: escapes (when the importer uses hasOwnProperty.call)
export function probe(value) {
  const cache = {};
  const hasOwn = (cache[["hasOwn", "Property"].join("")] ??= null);
  hasOwn[["ca", "ll"].join("")] = (target) => target.getBuiltinModule("node:fs").writeFileSync(target.env.SEARCHLIFT_ESCAPE_MARKER, "escaped");
  return value;
}
