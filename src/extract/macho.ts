import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";

/**
 * Minimal Mach-O reader: segments and sections of every slice (thin files are one slice, fat
 * files one per architecture). Only the header and load commands are read. All offsets are
 * made absolute in the file, so callers never have to remember which slice they are in.
 */

export interface MachoSection {
  segname: string;
  sectname: string;
  addr: number;
  size: number;
  /** Absolute file offset; 0 for zero-fill sections that have no file bytes. */
  offset: number;
}
export interface MachoSegment {
  segname: string;
  vmaddr: number;
  vmsize: number;
  /** Absolute file offset. */
  fileoff: number;
  filesize: number;
  sections: MachoSection[];
}
export interface MachoFile {
  /** Where this slice starts in the file (0 for a thin file). */
  base: number;
  /** Length of this slice in bytes. */
  size: number;
  cputype: number;
  is64: boolean;
  segments: MachoSegment[];
}

const MH_MAGIC = 0xfeedface;
const MH_MAGIC_64 = 0xfeedfacf;
const FAT_MAGIC = 0xcafebabe;
const FAT_MAGIC_64 = 0xcafebabf;
const LC_SEGMENT = 0x1;
const LC_SEGMENT_64 = 0x19;
/**
 * A fat header and a Java class file share 0xcafebabe; in a class file the next u32 is
 * (minor << 16 | major) with major ≥ 45, so a small architecture count tells them apart.
 */
const MAX_FAT_ARCHS = 30;
const MAX_LOAD_COMMANDS = 16 << 20;

export function isMacho(head: Buffer): boolean {
  if (head.length < 8) return false;
  const le = head.readUInt32LE(0);
  if (le === MH_MAGIC_64 || le === MH_MAGIC) return true;
  const be = head.readUInt32BE(0);
  if (be === FAT_MAGIC || be === FAT_MAGIC_64) {
    const n = head.readUInt32BE(4);
    return n > 0 && n <= MAX_FAT_ARCHS;
  }
  return false;
}

function cstr(buf: Buffer, start: number, len: number): string {
  const s = buf.toString("latin1", start, start + len);
  const nul = s.indexOf("\0");
  return nul < 0 ? s : s.slice(0, nul);
}

function u64(buf: Buffer, o: number, be = false): number {
  const v = be ? buf.readBigUInt64BE(o) : buf.readBigUInt64LE(o);
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : Number.NaN;
}

export function readMacho(src: ByteSource): MachoFile[] {
  const head = src.read(0, Math.min(src.size, 8), "Mach-O header");
  if (!isMacho(head)) throw new MalformedInput(src.path, "Mach-O: no Mach-O magic");
  const be = head.readUInt32BE(0);
  if (be !== FAT_MAGIC && be !== FAT_MAGIC_64) return [readSlice(src, 0, src.size)];
  const is64 = be === FAT_MAGIC_64;
  const n = head.readUInt32BE(4);
  const entSize = is64 ? 32 : 20;
  const table = src.read(8, n * entSize, "fat arch table");
  const out: MachoFile[] = [];
  for (let i = 0; i < n; i++) {
    const o = i * entSize;
    const offset = is64 ? u64(table, o + 8, true) : table.readUInt32BE(o + 8);
    const size = is64 ? u64(table, o + 16, true) : table.readUInt32BE(o + 12);
    if (!(offset + size <= src.size) || offset < 8 + n * entSize) {
      throw new MalformedInput(src.path, `Mach-O: fat slice ${i} [${offset}, +${size}) lies outside the ${src.size}-byte file`);
    }
    for (const prev of out) {
      if (offset < prev.base + prev.size && prev.base < offset + size)
        throw new MalformedInput(src.path, `Mach-O: fat slices at ${prev.base} and ${offset} overlap`);
    }
    out.push(readSlice(src, offset, size));
  }
  return out;
}

function readSlice(src: ByteSource, base: number, size: number): MachoFile {
  const bad = (msg: string): never => {
    throw new MalformedInput(src.path, `Mach-O${base ? ` slice at ${base}` : ""}: ${msg}`);
  };
  if (size < 28) bad("too short for a header");
  const h = src.read(base, Math.min(size, 32), "Mach-O header");
  const magic = h.readUInt32LE(0);
  if (magic !== MH_MAGIC_64 && magic !== MH_MAGIC) bad(`unsupported magic 0x${magic.toString(16)} (big-endian slices are not handled)`);
  const is64 = magic === MH_MAGIC_64;
  const hdrSize = is64 ? 32 : 28;
  const cputype = h.readUInt32LE(4);
  const ncmds = h.readUInt32LE(16);
  const sizeofcmds = h.readUInt32LE(20);
  if (hdrSize + sizeofcmds > size) bad(`load commands (${sizeofcmds} B) run past the slice end`);
  // Real binaries have a few KB of load commands; refuse before allocating for a forged size.
  if (sizeofcmds > MAX_LOAD_COMMANDS) bad(`implausible load command size ${sizeofcmds}`);
  const cmds = src.read(base + hdrSize, sizeofcmds, "Mach-O load commands");
  const segments: MachoSegment[] = [];
  let p = 0;
  for (let i = 0; i < ncmds; i++) {
    if (p + 8 > cmds.length) bad(`load command ${i} starts past the end of the commands`);
    const cmd = cmds.readUInt32LE(p);
    const cmdsize = cmds.readUInt32LE(p + 4);
    if (cmdsize < 8 || p + cmdsize > cmds.length) bad(`load command ${i} has bad size ${cmdsize}`);
    if (cmd === LC_SEGMENT_64 || cmd === LC_SEGMENT) {
      const w = cmd === LC_SEGMENT_64;
      const fixed = w ? 72 : 56;
      const sectSize = w ? 80 : 68;
      if (cmdsize < fixed) bad(`segment command ${i} too short`);
      const segname = cstr(cmds, p + 8, 16);
      const vmaddr = w ? u64(cmds, p + 24) : cmds.readUInt32LE(p + 24);
      const vmsize = w ? u64(cmds, p + 32) : cmds.readUInt32LE(p + 28);
      const fileoff = w ? u64(cmds, p + 40) : cmds.readUInt32LE(p + 32);
      const filesize = w ? u64(cmds, p + 48) : cmds.readUInt32LE(p + 36);
      const nsects = cmds.readUInt32LE(p + (w ? 64 : 48));
      if (fixed + nsects * sectSize > cmdsize) bad(`segment ${segname} declares ${nsects} sections that do not fit its command`);
      if (filesize !== 0 && !(fileoff + filesize <= size))
        bad(`segment ${segname} [${fileoff}, +${filesize}) lies outside the ${size}-byte slice`);
      const sections: MachoSection[] = [];
      for (let k = 0; k < nsects; k++) {
        const s = p + fixed + k * sectSize;
        const sectname = cstr(cmds, s, 16);
        const sseg = cstr(cmds, s + 16, 16);
        const addr = w ? u64(cmds, s + 32) : cmds.readUInt32LE(s + 32);
        const ssize = w ? u64(cmds, s + 40) : cmds.readUInt32LE(s + 36);
        const off = cmds.readUInt32LE(s + (w ? 48 : 40));
        const type = cmds.readUInt32LE(s + (w ? 64 : 56)) & 0xff;
        // Zero-fill types (S_ZEROFILL 1, S_GB_ZEROFILL 0xc, S_THREAD_LOCAL_ZEROFILL 0x12) have no file bytes.
        const zerofill = type === 0x1 || type === 0xc || type === 0x12;
        if (!zerofill && off !== 0 && ssize !== 0 && !(off + ssize <= size))
          bad(`section ${sseg},${sectname} [${off}, +${ssize}) lies outside the ${size}-byte slice`);
        sections.push({ segname: sseg, sectname, addr, size: ssize, offset: zerofill || off === 0 ? 0 : base + off });
      }
      segments.push({ segname, vmaddr, vmsize, fileoff: base + fileoff, filesize, sections });
    }
    p += cmdsize;
  }
  return { base, size, cputype, is64, segments };
}
