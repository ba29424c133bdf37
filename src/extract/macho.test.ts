/**
 * The Mach-O reader against llvm-readobj on Bun's darwin builds, a fat file we assemble from
 * them, and inputs that must not be taken for Mach-O or must be refused.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MalformedInput } from "../errors.js";
import { BufferByteSource, FileByteSource } from "./byte-source.js";
import { isMacho, readMacho } from "./macho.js";
import { num, readobj } from "../../test/helpers/readobj.js";
import { buildBun, fatMacho } from "../../test/helpers/bun-fixtures.js";

function sections(file: string) {
  const src = new FileByteSource(file);
  try {
    return readMacho(src);
  } finally {
    src.close();
  }
}

describe("readMacho", () => {
  for (const target of ["bun-darwin-arm64", "bun-darwin-x64"]) {
    it(`${target}: every section as llvm-readobj lists it`, () => {
      const file = buildBun({ target }).path;
      const [m, ...rest] = sections(file);
      expect(rest).toHaveLength(0);
      expect(m!.base).toBe(0);
      expect(m!.cputype).toBe(target.endsWith("arm64") ? 0x0100000c : 0x01000007);
      const ours = m!.segments.flatMap((s) => s.sections);
      const theirs = readobj(file, "--sections", "Section");
      expect(ours.map((s) => `${s.segname},${s.sectname}`)).toEqual(theirs.map((t) => `${t.Segment},${t.Name}`));
      ours.forEach((s, i) => {
        const t = theirs[i]!;
        expect([s.addr, s.size], s.sectname).toEqual([num(t.Address), num(t.Size)]);
        if (s.offset !== 0) expect(s.offset, s.sectname).toBe(num(t.Offset));
      });
      // Sections sit inside their segment's file range.
      for (const seg of m!.segments)
        for (const s of seg.sections) if (s.offset) expect(s.offset + s.size).toBeLessThanOrEqual(seg.fileoff + seg.filesize);
      expect(m!.segments.map((s) => s.segname)).toContain("__BUN");
    });
  }

  it("a fat file: one slice per architecture, offsets absolute in the file", () => {
    const arm = buildBun({ target: "bun-darwin-arm64" }).path;
    const x64 = buildBun({ target: "bun-darwin-x64" }).path;
    const fat = fatMacho([arm, x64]);
    expect(isMacho(readFileSync(fat).subarray(0, 8))).toBe(true);
    const slices = sections(fat);
    expect(slices).toHaveLength(2);
    // The fat header we wrote (big-endian offsets) says where each slice starts.
    const head = readFileSync(fat).subarray(0, 48);
    expect(slices.map((s) => s.base)).toEqual([head.readUInt32BE(16), head.readUInt32BE(36)]);
    [arm, x64].forEach((thinFile, i) => {
      const thin = sections(thinFile)[0]!;
      const s = slices[i]!;
      expect(s.cputype).toBe(thin.cputype);
      expect(s.segments.map((g) => g.fileoff - s.base)).toEqual(thin.segments.map((g) => g.fileoff));
      const a = s.segments.flatMap((g) => g.sections).map((x) => (x.offset ? x.offset - s.base : 0));
      expect(a).toEqual(thin.segments.flatMap((g) => g.sections).map((x) => x.offset));
    });
  });

  it("a Java class file (also 0xcafebabe) is not Mach-O", () => {
    const cls = Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x41, 0, 0]);
    expect(isMacho(cls)).toBe(false);
  });

  it("refuses slices and load commands that do not fit", () => {
    const fat = Buffer.alloc(64);
    fat.writeUInt32BE(0xcafebabe, 0);
    fat.writeUInt32BE(1, 4);
    fat.writeUInt32BE(4096, 16); // offset past the end
    fat.writeUInt32BE(4096, 20);
    expect(() => readMacho(new BufferByteSource("fat", fat))).toThrow(/fat slice 0 .* lies outside/);

    const thin = Buffer.alloc(64);
    thin.writeUInt32LE(0xfeedfacf, 0);
    thin.writeUInt32LE(1, 16); // one command
    thin.writeUInt32LE(1 << 20, 20); // sizeofcmds far beyond the file
    expect(() => readMacho(new BufferByteSource("thin", thin))).toThrow(MalformedInput);
  });
});
