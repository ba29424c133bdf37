// JSON.stringify = …: the importer's next JSON.stringify runs the payload.
// check: a write to JSON
// lift: refused
// control: escapes (when the importer calls JSON.stringify)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  JSON.stringify = function () {
    [].constructor.constructor(payload)();
    return "";
  };
  return value;
}
