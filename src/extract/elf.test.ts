/**
 * The ELF reader against llvm-readobj on real binaries (node itself, a Bun build), plus
 * synthetic damage that must be refused with MalformedInput.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MalformedInput } from "../errors.js";
import { BufferByteSource, FileByteSource } from "./byte-source.js";
import { elfNotes, isElf, PT_LOAD, PT_NOTE, readElf, vaddrToOffset } from "./elf.js";
import { num, readobj } from "../../test/helpers/readobj.js";
import { buildBun } from "../../test/helpers/bun-fixtures.js";

function checkAgainstReadobj(file: string): void {
  const src = new FileByteSource(file);
  try {
    const elf = readElf(src);
    const theirs = readobj(file, "--sections", "Section");
    expect(elf.sections.map((s) => s.name)).toEqual(theirs.map((s) => s.Name ?? ""));
    elf.sections.forEach((s, i) => {
      expect([s.offset, s.size, s.addr], s.name).toEqual([num(theirs[i]!.Offset), num(theirs[i]!.Size), num(theirs[i]!.Address)]);
    });
    const phdrs = readobj(file, "--program-headers", "ProgramHeader");
    expect(elf.segments.map((s) => [s.offset, s.vaddr, s.filesz, s.memsz, s.flags])).toEqual(
      phdrs.map((p) => [num(p.Offset), num(p.VirtualAddress), num(p.FileSize), num(p.MemSize), num(p.Flags)]),
    );
    // Every allocated, file-backed section maps back to its own offset through the loads.
    for (const s of elf.sections) {
      if ((s.flags & 2) === 0 || s.type === 8 || s.size === 0) continue; // SHF_ALLOC only
      expect(vaddrToOffset(elf, s.addr), s.name).toBe(s.offset);
    }
  } finally {
    src.close();
  }
}

describe("readElf", () => {
  it("node's own binary: sections and program headers as llvm-readobj sees them", () => {
    expect(isElf(readFileSync(process.execPath).subarray(0, 4))).toBe(true);
    checkAgainstReadobj(process.execPath);
  });

  it("a Bun 1.4 executable (grown RW load, .bun re-pointed at the payload block)", () => {
    checkAgainstReadobj(buildBun().path);
  });

  it("vaddrToOffset is null outside every PT_LOAD", () => {
    const src = new FileByteSource(process.execPath);
    const elf = readElf(src);
    src.close();
    const end = Math.max(...elf.segments.filter((s) => s.type === PT_LOAD).map((s) => s.vaddr + s.memsz));
    expect(vaddrToOffset(elf, end + 0x1000)).toBeNull();
  });

  it("refuses a section table past the end of the file", () => {
    const head = Buffer.from(readFileSync(process.execPath).subarray(0, 4096));
    expect(() => readElf(new BufferByteSource("cut", head))).toThrow(MalformedInput);
    head.writeBigUInt64LE(0n, 0x20); // no program headers
    head.writeBigUInt64LE(1n << 40n, 0x28); // e_shoff far away
    expect(() => readElf(new BufferByteSource("cut", head))).toThrow(/outside the 4096-byte file/);
  });
});

/** A minimal ELF64 with one PT_NOTE segment holding `notes`. */
function elfWithNotes(notes: Buffer, align = 4): Buffer {
  const h = Buffer.alloc(64 + 56);
  h.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1], 0);
  h.writeUInt16LE(2, 16);
  h.writeUInt16LE(62, 18);
  h.writeBigUInt64LE(64n, 32); // e_phoff
  h.writeUInt16LE(56, 54);
  h.writeUInt16LE(1, 56);
  h.writeUInt16LE(64, 58);
  h.writeUInt32LE(PT_NOTE, 64);
  h.writeBigUInt64LE(BigInt(h.length), 64 + 8);
  h.writeBigUInt64LE(BigInt(notes.length), 64 + 32);
  h.writeBigUInt64LE(BigInt(notes.length), 64 + 40);
  h.writeBigUInt64LE(BigInt(align), 64 + 48);
  return Buffer.concat([h, notes]);
}

function note(name: string, type: number, desc: Buffer, pad = 4): Buffer {
  const up = (n: number) => Math.ceil(n / pad) * pad;
  const nm = Buffer.from(name + "\0", "latin1");
  const b = Buffer.alloc(up(12 + nm.length) + up(desc.length));
  b.writeUInt32LE(nm.length, 0);
  b.writeUInt32LE(desc.length, 4);
  b.writeUInt32LE(type, 8);
  nm.copy(b, 12);
  desc.copy(b, up(12 + nm.length));
  return b;
}

describe("elfNotes", () => {
  it("node's binary: every note llvm-readobj lists, GNU build id bytes included", () => {
    const src = new FileByteSource(process.execPath);
    try {
      const ours = elfNotes(src, readElf(src));
      const theirs = readobj(process.execPath, "--notes", "Note");
      expect(theirs.length).toBeGreaterThan(0);
      for (const t of theirs.filter((n) => n.Owner === "GNU")) {
        expect(
          ours.some((n) => n.name === "GNU" && n.descSize === num(t["Data size"])),
          JSON.stringify(t),
        ).toBe(true);
      }
      const id = theirs.find((n) => n["Build ID"]);
      const mine = ours.find((n) => n.name === "GNU" && n.type === 3)!;
      expect(src.read(mine.descStart, mine.descSize).toString("hex")).toBe(id!["Build ID"]);
      // Each descriptor follows its own 4-byte-aligned name in the file.
      expect(src.read(mine.descStart - 4, 4).toString("latin1")).toBe("GNU\0");
      expect(ours.length).toBeGreaterThanOrEqual(theirs.length);
    } finally {
      src.close();
    }
  });

  it("8-byte aligned note segments (GNU properties) and names of every length", () => {
    const desc = Buffer.from("0123456789abcdef", "latin1");
    const file = elfWithNotes(Buffer.concat([note("GNU", 5, desc, 8), note("NODE_SEA_BLOB", 0x1234, desc.subarray(0, 3), 8)]), 8);
    const src = new BufferByteSource("notes", file);
    const got = elfNotes(src, readElf(src));
    expect(got.map((n) => [n.name, n.type, n.descSize])).toEqual([
      ["GNU", 5, 16],
      ["NODE_SEA_BLOB", 0x1234, 3],
    ]);
    for (const n of got) expect(file.subarray(n.descStart, n.descStart + n.descSize).equals(desc.subarray(0, n.descSize))).toBe(true);
  });

  it("refuses a note whose descriptor overruns its segment", () => {
    const bad = note("X", 1, Buffer.alloc(8));
    bad.writeUInt32LE(1 << 20, 4);
    const src = new BufferByteSource("bad", elfWithNotes(bad));
    expect(() => elfNotes(src, readElf(src))).toThrow(/overruns its/);
  });
});
