// Object.prototype.hasOwnProperty reached by a key built at run time, then given an own `call` by another: the importer's `hasOwnProperty.call(process, …)` hands it process.
// check: a value read by a run-time key not passed through readProperty
// lift: contained
// control: escapes (when the importer uses hasOwnProperty.call)
export function probe(value) {
  const hasOwn = ({})[["hasOwn", "Property"].join("")];
  hasOwn[["ca", "ll"].join("")] = (target) => target.getBuiltinModule("node:fs").writeFileSync(target.env.SEARCHLIFT_ESCAPE_MARKER, "escaped");
  return value;
}
