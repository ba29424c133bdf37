import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";

/**
 * Minimal ELF header reader: section and program headers, notes, vaddr → file offset.
 * Only the tables are read (they sit at e_phoff/e_shoff), never the whole file.
 * Both classes (32/64-bit) and both byte orders are handled; all numbers stay below 2^53
 * because a ByteSource cannot exceed that anyway and every offset is checked against its size.
 */

export interface ElfSection {
  name: string;
  type: number;
  addr: number;
  offset: number;
  size: number;
  flags: number;
  align: number;
}
export interface ElfSegment {
  type: number;
  flags: number;
  offset: number;
  vaddr: number;
  filesz: number;
  memsz: number;
  align: number;
}
export interface ElfFile {
  is64: boolean;
  littleEndian: boolean;
  machine: number;
  /** e_type: 2 EXEC, 3 DYN. */
  type: number;
  sections: ElfSection[];
  segments: ElfSegment[];
  /** Where the section header table lives (0/0 when absent, e.g. stripped by sstrip). */
  shoff: number;
  shSize: number;
}

export const SHT_NOBITS = 8;
export const SHT_NOTE = 7;
export const PT_LOAD = 1;
export const PT_NOTE = 4;

/** Tables larger than this are not plausible for a real executable; refuse before allocating. */
const MAX_TABLE_ENTRIES = 65535;

export function isElf(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46;
}

/** Reads integers of the file's byte order; u64 values above 2^53 are reported as NaN so range checks fail. */
class Ints {
  constructor(
    readonly buf: Buffer,
    readonly le: boolean,
  ) {}
  u16(o: number): number {
    return this.le ? this.buf.readUInt16LE(o) : this.buf.readUInt16BE(o);
  }
  u32(o: number): number {
    return this.le ? this.buf.readUInt32LE(o) : this.buf.readUInt32BE(o);
  }
  u64(o: number): number {
    const v = this.le ? this.buf.readBigUInt64LE(o) : this.buf.readBigUInt64BE(o);
    return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : Number.NaN;
  }
  word(o: number, is64: boolean): number {
    return is64 ? this.u64(o) : this.u32(o);
  }
}

export function readElf(src: ByteSource): ElfFile {
  const bad = (msg: string): never => {
    throw new MalformedInput(src.path, `ELF: ${msg}`);
  };
  if (src.size < 52) bad("file too short for an ELF header");
  const ident = src.read(0, 16, "ELF ident");
  if (!isElf(ident)) bad("no ELF magic");
  const cls = ident[4];
  const data = ident[5];
  if (cls !== 1 && cls !== 2) bad(`unknown class ${cls}`);
  if (data !== 1 && data !== 2) bad(`unknown data encoding ${data}`);
  const is64 = cls === 2;
  const le = data === 1;
  const hdr = new Ints(src.read(0, is64 ? 64 : 52, "ELF header"), le);
  const type = hdr.u16(16);
  const machine = hdr.u16(18);
  const phoff = hdr.word(is64 ? 32 : 28, is64);
  const shoff = hdr.word(is64 ? 40 : 32, is64);
  const phentsize = hdr.u16(is64 ? 54 : 42);
  const phnum = hdr.u16(is64 ? 56 : 44);
  const shentsize = hdr.u16(is64 ? 58 : 46);
  let shnum = hdr.u16(is64 ? 60 : 48);
  let shstrndx = hdr.u16(is64 ? 62 : 50);

  const segments: ElfSegment[] = [];
  if (phnum > 0 && phoff !== 0) {
    if (phentsize < (is64 ? 56 : 32) || phentsize > 1024) bad(`implausible program header entry size ${phentsize}`);
    const t = new Ints(src.read(phoff, phnum * phentsize, "ELF program headers"), le);
    for (let i = 0; i < phnum; i++) {
      const o = i * phentsize;
      const seg = segmentAt(t, o, is64);
      if (seg.filesz !== 0 && !(seg.offset + seg.filesz <= src.size))
        bad(`segment ${i} [${seg.offset}, +${seg.filesz}) lies outside the ${src.size}-byte file`);
      segments.push(seg);
    }
  }

  const sections: ElfSection[] = [];
  let shSize = 0;
  if (shoff !== 0) {
    if (!Number.isSafeInteger(shoff)) bad("section header offset out of range");
    if (shentsize < (is64 ? 64 : 40) || shentsize > 1024) bad(`implausible section header entry size ${shentsize}`);
    // Extended numbering: with ≥ 0xff00 sections the real count/index live in section 0.
    if (shnum === 0 || shstrndx === 0xffff) {
      const s0 = new Ints(src.read(shoff, shentsize, "ELF section header 0"), le);
      if (shnum === 0) shnum = s0.word(is64 ? 32 : 20, is64);
      if (shstrndx === 0xffff) shstrndx = s0.u32(is64 ? 44 : 28);
    }
    if (shnum > MAX_TABLE_ENTRIES) bad(`implausible section count ${shnum}`);
    shSize = shnum * shentsize;
    const t = new Ints(src.read(shoff, shSize, "ELF section headers"), le);
    const raw: Array<ElfSection & { nameOff: number }> = [];
    for (let i = 0; i < shnum; i++) {
      const o = i * shentsize;
      const s = sectionAt(t, o, is64);
      if (s.type !== SHT_NOBITS && s.type !== 0 && s.size !== 0 && !(s.offset + s.size <= src.size))
        bad(`section ${i} [${s.offset}, +${s.size}) lies outside the ${src.size}-byte file`);
      raw.push(s);
    }
    // Section names: read the string table once (it is small: a few KB even in huge binaries).
    const strtab = shstrndx < raw.length ? raw[shstrndx] : undefined;
    if (strtab && strtab.type !== SHT_NOBITS) {
      if (strtab.size > 16 << 20) bad(`section name table of ${strtab.size} bytes is implausible`);
      const names = src.read(strtab.offset, strtab.size, "ELF section names");
      for (const s of raw) {
        if (s.nameOff >= names.length) continue;
        const endNul = names.indexOf(0, s.nameOff);
        s.name = names.toString("latin1", s.nameOff, endNul < 0 ? names.length : endNul);
      }
    }
    for (const { nameOff: _n, ...s } of raw) sections.push(s);
  }
  return { is64, littleEndian: le, machine, type, sections, segments, shoff, shSize };
}

/** One program header entry, at `o` in the table. */
function segmentAt(t: Ints, o: number, is64: boolean): ElfSegment {
  return is64
    ? {
        type: t.u32(o),
        flags: t.u32(o + 4),
        offset: t.u64(o + 8),
        vaddr: t.u64(o + 16),
        filesz: t.u64(o + 32),
        memsz: t.u64(o + 40),
        align: t.u64(o + 48),
      }
    : {
        type: t.u32(o),
        offset: t.u32(o + 4),
        vaddr: t.u32(o + 8),
        filesz: t.u32(o + 16),
        memsz: t.u32(o + 20),
        flags: t.u32(o + 24),
        align: t.u32(o + 28),
      };
}

/** One section header entry, at `o` in the table, with its name's offset in the name table. */
function sectionAt(t: Ints, o: number, is64: boolean): ElfSection & { nameOff: number } {
  return {
    ...(is64
      ? {
          nameOff: t.u32(o),
          type: t.u32(o + 4),
          flags: t.u64(o + 8),
          addr: t.u64(o + 16),
          offset: t.u64(o + 24),
          size: t.u64(o + 32),
          align: t.u64(o + 48),
        }
      : {
          nameOff: t.u32(o),
          type: t.u32(o + 4),
          flags: t.u32(o + 8),
          addr: t.u32(o + 12),
          offset: t.u32(o + 16),
          size: t.u32(o + 20),
          align: t.u32(o + 32),
        }),
    name: "",
  };
}

/** File offset of a virtual address, via the PT_LOAD that maps it from file bytes; null if none does. */
export function vaddrToOffset(elf: ElfFile, vaddr: number): number | null {
  for (const s of elf.segments) {
    if (s.type !== PT_LOAD) continue;
    if (vaddr >= s.vaddr && vaddr < s.vaddr + s.filesz) return s.offset + (vaddr - s.vaddr);
  }
  return null;
}

export interface ElfNote {
  name: string;
  type: number;
  /** Absolute file offset of the descriptor. */
  descStart: number;
  descSize: number;
}

/**
 * All notes in PT_NOTE segments and SHT_NOTE sections (deduplicated: a note section normally
 * lies inside a note segment). Only the 12-byte note headers and names are read, so a note
 * carrying a 100 MB descriptor (a Node SEA blob) costs nothing.
 */
export function elfNotes(src: ByteSource, elf: ElfFile): ElfNote[] {
  const regions: Array<{ offset: number; size: number; align: number }> = [];
  for (const s of elf.segments) if (s.type === PT_NOTE && s.filesz > 0) regions.push({ offset: s.offset, size: s.filesz, align: s.align });
  for (const s of elf.sections) if (s.type === SHT_NOTE && s.size > 0) regions.push({ offset: s.offset, size: s.size, align: s.align });
  const seen = new Set<number>();
  const out: ElfNote[] = [];
  for (const r of regions) {
    // GNU property notes in 64-bit files use 8-byte padding; everything else pads to 4.
    const pad = r.align === 8 ? 8 : 4;
    // Padding is relative to the region start (the 12-byte header is not itself a multiple of 8).
    const up = (abs: number) => r.offset + Math.ceil((abs - r.offset) / pad) * pad;
    const end = r.offset + r.size;
    let p = r.offset;
    while (p + 12 <= end) {
      const h = new Ints(src.read(p, 12, "ELF note header"), elf.littleEndian);
      const namesz = h.u32(0);
      const descsz = h.u32(4);
      const type = h.u32(8);
      const nameAt = p + 12;
      const descAt = up(nameAt + namesz);
      if (descAt + descsz > end)
        throw new MalformedInput(
          src.path,
          `ELF: note at ${p} (name ${namesz} B, desc ${descsz} B) overruns its ${r.size}-byte note region at ${r.offset}`,
        );
      if (!seen.has(p)) {
        seen.add(p);
        let name = namesz > 0 ? src.read(nameAt, namesz, "ELF note name").toString("latin1") : "";
        const nul = name.indexOf("\0");
        if (nul >= 0) name = name.slice(0, nul);
        out.push({ name, type, descStart: descAt, descSize: descsz });
      }
      p = up(descAt + descsz);
    }
  }
  return out;
}
