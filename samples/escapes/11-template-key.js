// A key built at run time in a template literal from the probed value.
// check: a computed key not passed through propertyKey
// lift: contained
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const key = `constr${String(value).slice(0, 0)}uctor`;
  [][key][key](payload)();
  return value;
}
