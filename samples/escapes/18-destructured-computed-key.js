// Destructuring with a computed key built at run time.
// check: a run-time key in a destructuring pattern
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const key = ["constr", "uctor"].join("");
  const { [key]: ArrayFn } = [];
  const { [key]: FunctionFn } = ArrayFn;
  FunctionFn(payload)();
  return value;
}
