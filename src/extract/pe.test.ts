/**
 * The PE reader against llvm-readobj on Bun's Windows runtime (from npm) and a Windows build:
 * section table, RVA mapping and the resource tree (icons, group icon, version, manifest).
 */
import { describe, expect, it } from "vitest";
import { MalformedInput } from "../errors.js";
import { BufferByteSource, FileByteSource } from "./byte-source.js";
import { IMAGE_DIRECTORY_ENTRY_RESOURCE, isPe, peResources, readPe, rvaToOffset } from "./pe.js";
import { num, readobj } from "../../test/helpers/readobj.js";
import { buildBun } from "../../test/helpers/bun-fixtures.js";
import { npmPackMember } from "../../test/helpers/cache.js";

const template = () => npmPackMember("@oven/bun-windows-x64@1.4.5", "package/bin/bun.exe");

function checkSections(file: string): void {
  const src = new FileByteSource(file);
  try {
    expect(isPe(src.read(0, 4096))).toBe(true);
    const pe = readPe(src);
    const theirs = readobj(file, "--sections", "Section");
    expect(pe.sections.map((s) => s.name)).toEqual(theirs.map((t) => t.Name));
    pe.sections.forEach((s, i) => {
      const t = theirs[i]!;
      expect([s.virtualSize, s.virtualAddress, s.sizeOfRawData, s.pointerToRawData, s.characteristics], s.name).toEqual(
        [t.VirtualSize, t.VirtualAddress, t.RawDataSize, t.PointerToRawData, t.Characteristics].map(num),
      );
      if (s.sizeOfRawData > 0) expect(rvaToOffset(pe, s.virtualAddress + 1)).toBe(s.pointerToRawData + 1);
    });
  } finally {
    src.close();
  }
}

describe("readPe", () => {
  it("Bun's Windows runtime: sections as llvm-readobj lists them", () => checkSections(template()));
  it("a Windows Bun build: the added .bun section too", () => {
    const file = buildBun({ target: "bun-windows-x64" }).path;
    checkSections(file);
    const src = new FileByteSource(file);
    const pe = readPe(src);
    src.close();
    expect(pe.sections.at(-1)!.name).toBe(".bun");
  });

  it("refuses a section table that runs past the file", () => {
    const src = new FileByteSource(template());
    const head = Buffer.from(src.read(0, 1024));
    src.close();
    expect(() => readPe(new BufferByteSource("cut", head))).toThrow(MalformedInput);
    // A DOS program: MZ, but e_lfanew points at something other than "PE\0\0".
    const dos = Buffer.alloc(128, 0x20);
    dos.write("MZ", 0, "latin1");
    dos.writeUInt32LE(64, 0x3c);
    expect(isPe(dos)).toBe(false);
    dos.write("PE\0\0", 64, "latin1");
    expect(isPe(dos)).toBe(true);
  });

  it("names a section that lies outside the file on one line, whatever bytes its name holds", () => {
    const src = new FileByteSource(template());
    const head = Buffer.from(src.read(0, 4096));
    src.close();
    const lfanew = head.readUInt32LE(0x3c);
    const table = lfanew + 24 + head.readUInt16LE(lfanew + 20);
    head.write(".r\n\u001b[2J", table, "latin1"); // a line break and a terminal escape in the first section's name
    head.writeUInt32LE(0x7fff0000, table + 20); // its raw data far past the end
    let thrown: unknown;
    try {
      readPe(new BufferByteSource("forged", head));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(MalformedInput);
    const message = (thrown as Error).message;
    expect(message).toContain("lies outside the 4096-byte file");
    expect(message).not.toMatch(/[\u0000-\u001f]/);
    expect(message).toContain("section .r\\n\\u001b[2J [2147418112,");
  });
});

describe("peResources", () => {
  it("Bun's Windows runtime: the resource tree llvm-readobj prints, with readable manifest and version data", () => {
    const file = template();
    const src = new FileByteSource(file);
    try {
      const pe = readPe(src);
      expect(pe.dataDirectories[IMAGE_DIRECTORY_ENTRY_RESOURCE]!.size).toBeGreaterThan(0);
      const ours = peResources(src, pe);
      // llvm-readobj nests Type → Name → Language; its leaves carry DataRVA/DataSize.
      const text = readobj(file, "--coff-resources", "Data");
      expect(ours.map((r) => [r.start, r.size])).toEqual(text.map((d) => [rvaToOffset(pe, num(d.DataRVA)), num(d.DataSize)]));
      expect(ours.map((r) => r.type)).toEqual([3, 14, 16, 24]); // RT_ICON, RT_GROUP_ICON, RT_VERSION, RT_MANIFEST
      expect(ours.find((r) => r.type === 14)!.name).toBe("IDI_MYICON");
      for (const r of ours) expect(r.lang).toBe(1033);
      const manifest = ours.find((r) => r.type === 24)!;
      expect(src.read(manifest.start, manifest.size).toString("utf8")).toMatch(/<assembly[\s\S]*<\/assembly>/);
      const version = ours.find((r) => r.type === 16)!;
      expect(src.read(version.start, version.size).toString("utf16le")).toContain("VS_VERSION_INFO");
    } finally {
      src.close();
    }
  });

  it("refuses a resource directory that loops back on itself", () => {
    const src = new FileByteSource(template());
    const pe = readPe(src);
    const dir = pe.dataDirectories[IMAGE_DIRECTORY_ENTRY_RESOURCE]!;
    const at = rvaToOffset(pe, dir.rva)!;
    const size = src.size;
    // A copy of the resource section with the first type entry pointing back at the root directory.
    const sec = pe.sections.find((s) => s.name === ".rsrc")!;
    const patched = Buffer.from(src.read(sec.pointerToRawData, sec.sizeOfRawData));
    src.close();
    patched.writeUInt32LE(0x80000000, at - sec.pointerToRawData + 16 + 4);
    const view = {
      path: "loop",
      size,
      read: (s: number, n: number) => {
        const src2 = new FileByteSource(template());
        try {
          const b = Buffer.from(src2.read(s, n));
          const lo = Math.max(s, sec.pointerToRawData);
          const hi = Math.min(s + n, sec.pointerToRawData + sec.sizeOfRawData);
          if (lo < hi) patched.copy(b, lo - s, lo - sec.pointerToRawData, hi - sec.pointerToRawData);
          return b;
        } finally {
          src2.close();
        }
      },
      readInto(s: number, n: number) {
        return this.read(s, n);
      },
      close() {},
    };
    expect(() => peResources(view, pe)).toThrow(/loop/);
  });
});
