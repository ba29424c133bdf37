// The constructor chain with keys concatenated from literals.
// check: property constructor
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  []["constr" + "uctor"]["constr" + "uctor"](payload)();
  return value;
}
