// A built-in method reached by a symbol key, then the constructor chain.
// check: a computed key not passed through propertyKey
// lift: contained
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const values = [][Symbol.iterator];
  const key = ["constr", "uctor"].join("");
  values[key](payload)();
  return value;
}
