import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MalformedInput } from "../errors.js";
import { FileByteSource } from "./byte-source.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-byte-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("FileByteSource.read", () => {
  const file = join(dir, "small");
  writeFileSync(file, Buffer.alloc(100, 7));

  // A header field decoded as NaN (a 64-bit value past 2^53) or as gigabytes must cost an error, not a buffer.
  it.each([
    ["NaN", Number.NaN],
    ["3 GB", 3 * 2 ** 30],
    ["-1", -1],
  ])("refuses a length of %s with MalformedInput before allocating", (_, length) => {
    const src = new FileByteSource(file);
    try {
      let thrown: unknown;
      try {
        src.read(10, length, "table");
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(MalformedInput);
      expect((thrown as Error).message).toContain("table [10, +");
      expect((thrown as Error).message).toContain("lies outside the 100-byte file");
    } finally {
      src.close();
    }
  });

  it("reads a range inside the file", () => {
    const src = new FileByteSource(file);
    expect([...src.read(95, 5)]).toEqual([7, 7, 7, 7, 7]);
    src.close();
  });
});
