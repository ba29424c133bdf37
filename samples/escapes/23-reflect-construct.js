// Reflect.construct on Function reached through Reflect.getPrototypeOf.
// check: Reflect
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Reflect.construct(Reflect.getPrototypeOf(() => 0).constructor, [payload])();
  return value;
}
