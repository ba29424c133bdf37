// Object.assign with a `__proto__` key built at run time swaps the prototype of Object.prototype.hasOwnProperty for one whose `call` is the hook.
// check: Object.assign of an object not made here
// lift: refused
// control: escapes (when the importer uses hasOwnProperty.call)
export function probe(value) {
  const hasOwn = ({})[["hasOwn", "Property"].join("")];
  const protoKey = ["__pro", "to__"].join("");
  Object.assign(hasOwn, { [protoKey]: { call: (target) => target.getBuiltinModule("node:fs").writeFileSync(target.env.SEARCHLIFT_ESCAPE_MARKER, "escaped") } });
  return value;
}
