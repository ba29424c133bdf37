// Error.prepareStackTrace: a hook the importer calls with its own call sites whenever it reads a stack.
// check: property prepareStackTrace
// lift: refused
// control: escapes (when the importer reads an error's stack)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Error.prepareStackTrace = (error, frames) => {
    frames.constructor.constructor(payload)();
    return "";
  };
  return value;
}
