// A global built-in kept in a variable, then written.
// check: JSON as a value
// lift: refused
// control: escapes (when the importer calls JSON.stringify)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const json = JSON;
  json.stringify = function () {
    [].constructor.constructor(payload)();
    return "";
  };
  return value;
}
