import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MalformedInput } from "../errors.js";
import { FileByteSource } from "./byte-source.js";
import { rangeContainer } from "./container.js";
import type { Encoding, ModuleEntry } from "./types.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-container-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (path: string, start: number, end: number, encoding: Encoding): ModuleEntry => ({
  path,
  kind: "js",
  loader: "js",
  moduleFormat: "esm",
  encoding,
  size: end - start,
  bytecode: false,
  start,
  end,
});

describe("module texts of a file", () => {
  // Modules of different sizes and encodings, read in an order that grows, shrinks and grows the buffer texts are read through.
  const big = "var big = 1;".repeat(5000);
  const small = "let s = 'é';";
  const wide = "const w = '\u2603';";
  const parts = [Buffer.from(small, "utf8"), Buffer.from(big, "latin1"), Buffer.from(wide, "utf16le"), Buffer.from("x=1", "latin1")];
  const file = join(dir, "modules.bin");
  writeFileSync(file, Buffer.concat(parts));
  const at = parts.map((_, i) => parts.slice(0, i).reduce((n, p) => n + p.length, 0));
  const modules = [
    entry("small.js", at[0]!, at[1]!, "utf8"),
    entry("big.js", at[1]!, at[2]!, "latin1"),
    entry("wide.js", at[2]!, at[3]!, "utf16le"),
    entry("tail.js", at[3]!, at[3]! + 3, "latin1"),
  ];

  it("decodes each module whole, whatever was read before it", () => {
    const c = rangeContainer(new FileByteSource(file), { input: file, format: "plain-script", runtime: null, entry: null, modules });
    try {
      const read = (path: string) => c.text(modules.find((m) => m.path === path)!);
      const small1 = read("small.js");
      const big1 = read("big.js");
      expect([read("tail.js"), read("wide.js"), small1, read("small.js"), big1, read("big.js")]).toEqual([
        "x=1",
        wide,
        small,
        small,
        big,
        big,
      ]);
    } finally {
      c.close();
    }
  });

  it("decodes a one-byte module larger than its read window, every byte value across the window edges", () => {
    // 2.5 windows of every byte value in turn, so bytes above 127 sit on both sides of each edge.
    const bytes = Buffer.alloc((5 << 20) / 2 + 7);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    const large = join(dir, "large.bin");
    writeFileSync(large, Buffer.concat([Buffer.from("x=1"), bytes]));
    const mods = [entry("head.js", 0, 3, "latin1"), entry("large.js", 3, 3 + bytes.length, "latin1")];
    const c = rangeContainer(new FileByteSource(large), {
      input: large,
      format: "plain-script",
      runtime: null,
      entry: null,
      modules: mods,
    });
    try {
      expect(c.text(mods[0]!)).toBe("x=1");
      const text = c.text(mods[1]!);
      expect(text.length).toBe(bytes.length);
      expect(text === bytes.toString("latin1")).toBe(true);
      expect(c.text(mods[0]!)).toBe("x=1");
    } finally {
      c.close();
    }
  });

  it("names the module whose range lies outside the file", () => {
    const outside = entry("outside.js", at[3]!, at[3]! + 100, "latin1");
    const c = rangeContainer(new FileByteSource(file), {
      input: file,
      format: "plain-script",
      runtime: null,
      entry: null,
      modules: [outside],
    });
    try {
      expect(() => c.text(outside)).toThrow(MalformedInput);
      expect(() => c.text(outside)).toThrow(/outside\.js/);
    } finally {
      c.close();
    }
  });
});
