// Atomics.wait on shared memory: blocks the importer's thread.
// check: Atomics
// lift: refused
// control: none (blocks, runs nothing)
const payload = "const p = globalThis.process; p.getBuiltinModule(\"node:fs\").writeFileSync(p.env.SEARCHLIFT_ESCAPE_MARKER, \"escaped\");";

export function probe(value) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  return value;
}
