// `super.constructor` in a method: Object, then Function.
// check: super
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  class Probe {
    reach() {
      return super.constructor;
    }
  }
  new Probe().reach().constructor(payload)();
  return value;
}
