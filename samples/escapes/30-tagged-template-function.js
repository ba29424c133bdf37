// Function called as a template tag: the template is the body.
// check: property constructor
// lift: refused
// control: escapes
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  const FunctionFn = [].constructor.constructor;
  FunctionFn`const p = globalThis.process; p.getBuiltinModule("node:fs").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, "escaped")`();
  return value;
}
