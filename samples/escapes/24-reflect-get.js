// Reflect.get with a key built at run time.
// check: Reflect
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const key = ["constr", "uctor"].join("");
  Reflect.get(Reflect.get([], key), key)(payload)();
  return value;
}
