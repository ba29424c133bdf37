// A Proxy trap (the trap itself uses the constructor chain).
// check: Proxy
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  new Proxy({}, { get: () => [].constructor.constructor(payload)() }).anything;
  return value;
}
