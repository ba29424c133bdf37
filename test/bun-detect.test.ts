/**
 * readBun beyond the happy path: detection must be cheap and say null for non-Bun executables;
 * layouts we cannot build with the Bun releases at hand are made by patching real builds
 * (u32 Mach-O/PE length, the ELF 8-byte address slot, stripped section headers, a signature
 * appended after a legacy payload); and damaged tables are refused with MalformedInput.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MalformedInput } from "../src/errors.js";
import { FileByteSource, checkRange, type ByteSource } from "../src/extract/byte-source.js";
import { readBun } from "../src/extract/bun.js";
import { readElf } from "../src/extract/elf.js";
import { readMacho } from "../src/extract/macho.js";
import { IMAGE_DIRECTORY_ENTRY_SECURITY, readPe } from "../src/extract/pe.js";
import type { Container } from "../src/extract/types.js";
import { buildBun, REPO, SAMPLES } from "./helpers/bun-fixtures.js";
import { npmPackMember } from "./helpers/cache.js";

/**
 * A file seen through byte patches and optional appended bytes, without copying it; counts what
 * is read so tests can bound the cost of detection.
 */
class PatchedSource implements ByteSource {
  readonly size: number;
  bytesRead = 0;
  private readonly file: FileByteSource;
  constructor(
    readonly path: string,
    private readonly patches: Array<{ at: number; bytes: Buffer }> = [],
    private readonly tail: Buffer = Buffer.alloc(0),
  ) {
    this.file = new FileByteSource(path);
    this.size = this.file.size + tail.length;
  }
  read(start: number, length: number, what?: string): Buffer {
    checkRange(this, start, length, what);
    this.bytesRead += length;
    const out = Buffer.alloc(length);
    const fromFile = Math.max(0, Math.min(length, this.file.size - start));
    if (fromFile > 0) this.file.read(start, fromFile).copy(out, 0);
    if (fromFile < length) this.tail.copy(out, fromFile, Math.max(0, start - this.file.size), start + length - this.file.size);
    for (const p of this.patches) {
      const lo = Math.max(start, p.at);
      const hi = Math.min(start + length, p.at + p.bytes.length);
      if (lo < hi) p.bytes.copy(out, lo - start, lo - p.at, hi - p.at);
    }
    return out;
  }
  readInto(start: number, length: number): Buffer {
    return this.read(start, length);
  }
  close(): void {
    this.file.close();
  }
}

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/** path → kind/loader/encoding/bytes, to compare a patched read with the original one. */
function summary(c: Container) {
  return {
    entry: c.entry,
    runtime: c.runtime,
    modules: c.modules.map((m) => ({
      path: m.path,
      kind: m.kind,
      loader: m.loader,
      encoding: m.encoding,
      bytes: c.read(m).toString("base64"),
    })),
  };
}

function readOriginal(path: string) {
  const src = new FileByteSource(path);
  const c = readBun(src, path)!;
  const s = summary(c);
  const mods = c.modules;
  c.close();
  return { summary: s, modules: mods };
}

describe("detection is cheap and says null for other executables", () => {
  const cases: Array<[string, () => string]> = [
    ["node's own ELF binary", () => process.execPath],
    ["the bare Bun runtime (empty .bun slot)", () => realpathSync(join(REPO, "node_modules", ".bin", "bun"))],
    ["Bun's Windows runtime (no .bun section)", () => npmPackMember("@oven/bun-windows-x64@1.4.5", "package/bin/bun.exe")],
    ["a JavaScript file", () => join(SAMPLES, "main.js")],
  ];
  for (const [label, path] of cases) {
    it(label, () => {
      const src = new PatchedSource(path());
      expect(readBun(src, src.path)).toBeNull();
      // Headers, section names and the last bytes: a few hundred KB at most, never the file.
      expect(src.bytesRead).toBeLessThan(Math.min(1 << 20, src.size + 64));
      src.close();
    });
  }

  it("a file that merely starts with MZ (e_lfanew beyond the first 4 KB, no PE signature)", () => {
    const head = Buffer.alloc(0x40);
    head.write("MZ", 0, "latin1");
    head.writeUInt32LE(8000, 0x3c);
    const path = join(SAMPLES, "main.js");
    // main.js with a DOS-like header patched over its start and 10 KB of data appended.
    const src = new PatchedSource(path, [{ at: 0, bytes: head }], Buffer.alloc(10_000, 0x41));
    expect(readBun(src, path)).toBeNull();
    src.close();
  });
});

describe("layouts made by patching real builds", () => {
  it("Mach-O with the ≤1.3.3 u32 length before the payload", () => {
    const fx = buildBun({ target: "bun-darwin-arm64" });
    const orig = readOriginal(fx.path);
    const src0 = new FileByteSource(fx.path);
    const sect = readMacho(src0)[0]!.segments.find((s) => s.segname === "__BUN")!.sections[0]!;
    const len = Number(src0.read(sect.offset, 8).readBigUInt64LE());
    const payload = src0.read(sect.offset + 8, len);
    src0.close();
    const src = new PatchedSource(fx.path, [{ at: sect.offset, bytes: Buffer.concat([u32(len), payload, Buffer.alloc(4)]) }]);
    const c = readBun(src, fx.path)!;
    expect(c.format).toBe("bun-macho");
    expect(summary(c)).toEqual(orig.summary);
    expect(c.modules.map((m) => m.start)).toEqual(orig.modules.map((m) => m.start - 4));
    c.close();
  });

  it("PE with the ≤1.3.3 u32 length, and a certificate table appended after .bun", () => {
    const fx = buildBun({ target: "bun-windows-x64" });
    const orig = readOriginal(fx.path);
    const src0 = new FileByteSource(fx.path);
    const pe = readPe(src0);
    const bun = pe.sections.find((s) => s.name === ".bun")!;
    const len = Number(src0.read(bun.pointerToRawData, 8).readBigUInt64LE());
    const payload = src0.read(bun.pointerToRawData + 8, len);
    // Where the security directory entry lives: optional header data directories, entry 4.
    const lfanew = src0.read(0x3c, 4).readUInt32LE();
    const dirAt = lfanew + 24 + 112 + 8 * IMAGE_DIRECTORY_ENTRY_SECURITY;
    const size = src0.size;
    src0.close();
    const cert = Buffer.alloc(4096, 0x5a);
    const src = new PatchedSource(
      fx.path,
      [
        { at: bun.pointerToRawData, bytes: Buffer.concat([u32(len), payload, Buffer.alloc(4)]) },
        { at: dirAt, bytes: Buffer.concat([u32(size), u32(cert.length)]) },
      ],
      cert,
    );
    const c = readBun(src, fx.path)!;
    expect(c.format).toBe("bun-pe");
    expect(summary(c)).toEqual(orig.summary);
    c.close();
  });

  it("ELF whose .bun section header is the 8-byte slot holding the block's address", () => {
    const fx = buildBun();
    const orig = readOriginal(fx.path);
    const src0 = new FileByteSource(fx.path);
    const elf = readElf(src0);
    const idx = elf.sections.findIndex((s) => s.name === ".bun");
    const bun = elf.sections[idx]!;
    // The runtime's BUN_COMPILED slot: the one u64 outside the section table equal to the block's address.
    const data = elf.segments.filter((s) => s.type === 1 && (s.flags & 2) !== 0);
    const hits: number[] = [];
    for (const seg of data) {
      const end = Math.min(seg.offset + seg.filesz, bun.offset);
      const buf = src0.read(seg.offset, end - seg.offset);
      for (let i = buf.indexOf(u64(bun.addr)); i >= 0; i = buf.indexOf(u64(bun.addr), i + 1)) hits.push(seg.offset + i);
    }
    src0.close();
    expect(hits).toHaveLength(1);
    const hdr = elf.shoff + idx * 64;
    const src = new PatchedSource(fx.path, [{ at: hdr + 24, bytes: Buffer.concat([u64(hits[0]!), u64(8)]) }]);
    const c = readBun(src, fx.path)!;
    expect(c.format).toBe("bun-elf");
    expect(summary(c)).toEqual(orig.summary);
    c.close();
  });

  it("ELF without section headers: found by the trailer scan", () => {
    const fx = buildBun();
    const orig = readOriginal(fx.path);
    const noSht = Buffer.alloc(64 - 0x28);
    // e_shoff = 0 … e_shnum = 0, e_shstrndx = 0; keep e_flags/e_ehsize/e_ph* as they were.
    const src0 = new FileByteSource(fx.path);
    const head = Buffer.from(src0.read(0, 64));
    src0.close();
    head.copy(noSht, 0, 0x28, 64);
    noSht.writeBigUInt64LE(0n, 0);
    noSht.writeUInt16LE(0, 0x3c - 0x28);
    noSht.writeUInt16LE(0, 0x3e - 0x28);
    const src = new PatchedSource(fx.path, [{ at: 0x28, bytes: noSht }]);
    const c = readBun(src, fx.path)!;
    expect(c.format).toBe("bun-elf");
    expect(c.notes.join(" ")).toMatch(/trailer scan/);
    // Without section names the version string is still found in the read-only PT_LOAD.
    expect(summary(c)).toEqual(orig.summary);
    c.close();
  });

  it("legacy payload followed by appended bytes: the scan covers only the data after the image", () => {
    const fx = buildBun({ version: "1.2.20" });
    const orig = readOriginal(fx.path);
    const src = new PatchedSource(fx.path, [], Buffer.alloc(5000, 0x33));
    const c = readBun(src, fx.path)!;
    expect(c.format).toBe("bun-legacy");
    expect(summary(c)).toEqual(orig.summary);
    expect(c.notes.join(" ")).toMatch(/trailer scan/);
    // The ELF image ends long before the payload; the scan reads the appended part, not the runtime.
    const src2 = new FileByteSource(fx.path);
    const elf = readElf(src2);
    src2.close();
    const image = Math.max(elf.shoff + elf.shSize, ...elf.segments.map((s) => s.offset + s.filesz));
    expect(src.bytesRead).toBeLessThan(src.size - image + (64 << 20));
    c.close();
  });
});

describe("damaged tables are refused", () => {
  /** Offsets of the module table and first record's contents pointer in a 1.4 host build. */
  function layout() {
    const fx = buildBun();
    const src = new FileByteSource(fx.path);
    const bun = readElf(src).sections.find((s) => s.name === ".bun")!;
    const start = bun.offset + 8;
    const len = Number(src.read(bun.offset, 8).readBigUInt64LE());
    const trailerEnd = start + len;
    const offs = src.read(trailerEnd - 16 - 32, 32);
    const table = start + offs.readUInt32LE(8);
    const rec1 = src.read(table + 52, 52);
    src.close();
    return { path: fx.path, bun, start, trailerEnd, table, rec1 };
  }

  it("a contents pointer outside the payload", () => {
    const l = layout();
    const src = new PatchedSource(l.path, [{ at: l.table + 8, bytes: Buffer.concat([u32(0xfffff000), u32(16)]) }]);
    expect(() => readBun(src, l.path)).toThrow(MalformedInput);
    expect(() => readBun(src, l.path)).toThrow(/contents \(4294963200, 16\) outside the payload/);
  });

  it("two modules whose contents overlap", () => {
    const l = layout();
    // Module 0's contents extended over module 1's.
    const off1 = l.rec1.readUInt32LE(8);
    const src = new PatchedSource(l.path, [{ at: l.table + 12, bytes: u32(off1 + 4) }]);
    expect(() => readBun(src, l.path)).toThrow(/contents of modules 0 and 1 overlap/);
  });

  it("a .bun section whose payload lost its trailer", () => {
    const l = layout();
    const src = new PatchedSource(l.path, [{ at: l.trailerEnd - 16, bytes: Buffer.from("\n---- Bxn! ----\n") }]);
    expect(() => readBun(src, l.path)).toThrow(/\.bun section/);
  });

  it("a byte_count that disagrees with the section's length", () => {
    const l = layout();
    const src = new PatchedSource(l.path, [{ at: l.trailerEnd - 16 - 32, bytes: u64(l.trailerEnd - 16 - 32 - l.start - 8) }]);
    expect(() => readBun(src, l.path)).toThrow(/puts the payload at/);
  });

  it("a legacy file whose graph does not parse", () => {
    const fx = buildBun({ version: "1.2.20" });
    const src0 = new FileByteSource(fx.path);
    const size = src0.size;
    src0.close();
    // Offsets' module table pointer made to reach past byte_count.
    const src = new PatchedSource(fx.path, [{ at: size - 8 - 16 - 24 + 8, bytes: Buffer.concat([u32(0x7fffffff), u32(36)]) }]);
    expect(() => readBun(src, fx.path)).toThrow(/module graph does not parse/);
  });
});
