// A for-loop counter that is given a string: not a numeric key.
// check: a computed key not passed through propertyKey
// lift: contained
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  for (let i = 0; i < 1; i++) {
    i = ["constr", "uctor"].join("");
    [][i][i](payload)();
  }
  return value;
}
