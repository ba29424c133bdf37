// Object.assign(JSON, …): a global passed as a value.
// check: JSON as a value
// lift: refused
// control: escapes (when the importer calls JSON.stringify)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Object.assign(JSON, {
    stringify() {
      [].constructor.constructor(payload)();
      return "";
    },
  });
  return value;
}
