// A key that reads as arithmetic but is a string (`+k || k`).
// check: a computed key not passed through propertyKey
// lift: contained
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const key = ["constr", "uctor"].join("");
  [][+key || key][+key || key](payload)();
  return value;
}
