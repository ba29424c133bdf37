import type { Container, ModuleEntry } from "../../src/extract/types.js";

/** A container of in-memory ESM chunks, as a code-split Bun build lays them out. */
export function memoryContainer(files: Record<string, string>): Container {
  let at = 0;
  const modules: ModuleEntry[] = Object.entries(files).map(([path, text]) => {
    const size = Buffer.byteLength(text);
    const m: ModuleEntry = {
      path,
      kind: "js",
      loader: "js",
      moduleFormat: "esm",
      encoding: "utf8",
      size,
      bytecode: false,
      start: at,
      end: at + size,
    };
    at += size;
    return m;
  });
  const all = Buffer.concat(Object.values(files).map((t) => Buffer.from(t)));
  return {
    input: "memory",
    file: "memory",
    format: "bun-elf",
    runtime: null,
    entry: modules[0]!.path,
    modules,
    notes: [],
    read: (m) => Buffer.from(files[m.path]!),
    readRange: (start, length) => all.subarray(start, start + length),
    text: (m) => files[m.path]!,
    close: () => {},
  };
}
