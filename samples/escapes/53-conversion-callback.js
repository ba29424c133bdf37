// String handed to a helper as if to a callback, which plants the hook on String.raw: the importer's String.raw with a host object hands it over.
// check: String as a value
// lift: contained
// control: escapes (when the importer calls String.raw)
function keep(convert) {
  convert[["ra", "w"].join("")] = (strings, target) => ((target) => target.getBuiltinModule("node:fs").writeFileSync(target.env.SEARCHLIFT_ESCAPE_MARKER, "escaped"))(target);
  return convert;
}

export function probe(value) {
  keep(String);
  return value;
}
