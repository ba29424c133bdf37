// `f.call.call(Function, null, body)`: Function.prototype.call as a value.
// check: .call as a value
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  (() => 0).call.call([].constructor.constructor, null, payload)();
  return value;
}
