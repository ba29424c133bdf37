// A subclass of Array whose Symbol.species getter runs the payload.
// check: Array as a value
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  class Evil extends Array {
    static get [Symbol.species]() {
      [].constructor.constructor(payload)();
      return Evil;
    }
  }
  new Evil(1).map((x) => x);
  return value;
}
