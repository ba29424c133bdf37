// Keys from a for-in loop over parsed JSON.
// check: a computed key not passed through propertyKey
// lift: contained
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  for (const key in JSON.parse('{"constructor": 1}')) [][key][key](payload)();
  return value;
}
