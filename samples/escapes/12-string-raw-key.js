// A key built by String.raw with a substitution.
// check: a computed key not passed through propertyKey
// lift: contained
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const key = String.raw`constr${""}uctor`;
  [][key][key](payload)();
  return value;
}
