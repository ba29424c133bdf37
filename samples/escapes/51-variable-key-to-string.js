// Object.prototype.toString reached by a key concatenated into a variable, then given an own `call`: the importer's `Object.prototype.toString.call(process)` hands it process.
// check: a value read by a run-time key not passed through readProperty
// lift: contained
// control: escapes (when the importer uses toString.call)
export function probe(value) {
  const toStringKey = "to" + "String";
  const callKey = "ca" + "ll";
  const toString = ({})[toStringKey];
  toString[callKey] = (target) => target.getBuiltinModule("node:fs").writeFileSync(target.env.SEARCHLIFT_ESCAPE_MARKER, "escaped");
  return value;
}
