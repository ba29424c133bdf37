// `const { constructor: c } = []`: destructuring as a property read.
// check: property constructor
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const { constructor: ArrayFn } = [];
  const { constructor: FunctionFn } = ArrayFn;
  FunctionFn(payload)();
  return value;
}
