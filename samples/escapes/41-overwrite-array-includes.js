// Array.prototype.includes = …
// check: property prototype
// lift: refused
// control: escapes (when the importer calls includes)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Array.prototype.includes = function () {
    [].constructor.constructor(payload)();
    return true;
  };
  return value;
}
