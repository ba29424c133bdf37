// A read by a run-time key after an optional link, which no port can wrap: refused.
// check: a value read by a run-time key after an optional link
// lift: refused
// control: escapes (when the importer uses hasOwnProperty.call)
export function probe(value) {
  const hasOwn = ({})?.[["hasOwn", "Property"].join("")];
  hasOwn[["ca", "ll"].join("")] = (target) => target.getBuiltinModule("node:fs").writeFileSync(target.env.SEARCHLIFT_ESCAPE_MARKER, "escaped");
  return value;
}
