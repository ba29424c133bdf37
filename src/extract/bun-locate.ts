import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";
import { PT_LOAD, SHT_NOBITS, readElf, vaddrToOffset } from "./elf.js";
import { readMacho, type MachoFile } from "./macho.js";
import { IMAGE_DIRECTORY_ENTRY_SECURITY, readPe } from "./pe.js";
import { BUN_TRAILER } from "./bun-payload.js";
import type { Region } from "./bun-runtime.js";
import type { ContainerFormat } from "./types.js";

/**
 * Where a Bun payload sits in each executable format, from headers alone:
 *   ELF     `.bun` section → [u64 len][payload]; or an 8-byte slot holding the block's vaddr
 *   Mach-O  `__BUN,__bun` → [u64 len] (≥1.3.4) or [u32 len] (≤1.3.3), per slice of a fat file
 *   PE      `.bun` section → [u64 len] or [u32 len]; an Authenticode table may follow it
 *   legacy  [executable][payload][u64 file size] at the end of any of them
 * Each probe also says which read-only region holds the runtime's version string and, when no
 * payload was found, which regions a trailer scan may reasonably search.
 */

export interface Located {
  format: ContainerFormat;
  /** Absolute offset of the payload start (pointer base). */
  start: number | undefined;
  /** Absolute offset just past the trailer. */
  trailerEnd: number;
  where: string;
}

export interface Probe {
  family: ContainerFormat;
  found: Located | null;
  /** A Bun section exists but says "nothing compiled in" (the bare runtime). */
  empty: boolean;
  /** A Bun section exists but its header does not describe a payload. */
  problem: string | null;
  runtimeRegions: Region[];
  /** Regions a trailer scan may search when nothing was found (empty: do not scan). */
  scanRegions: Region[];
  /** End of the bytes the headers account for; anything after is appended data. */
  imageEnd: number;
  notes: string[];
}

/** Smallest payload: Offsets (24) + trailer (16) and at least one record. */
const MIN_PAYLOAD = 24 + 16 + 28;

function u64(src: ByteSource, at: number): number {
  const v = src.read(at, 8, "Bun length").readBigUInt64LE(0);
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : Number.NaN;
}

function trailerAt(src: ByteSource, end: number): boolean {
  return (
    end - BUN_TRAILER.length >= 0 &&
    end <= src.size &&
    src.read(end - BUN_TRAILER.length, BUN_TRAILER.length, "Bun trailer").equals(BUN_TRAILER)
  );
}

/**
 * A `[len][payload]` block at `at`, with the length as u64 or (older Mach-O/PE) u32. The width
 * is decided by where the trailer lands. Returns "empty" for a zero length.
 */
function lengthPrefixed(src: ByteSource, at: number, limit: number, widths: Array<4 | 8>): { start: number; end: number } | "empty" | null {
  for (const w of widths) {
    if (at + w > limit) continue;
    const len = w === 8 ? u64(src, at) : src.read(at, 4, "Bun length").readUInt32LE(0);
    if (len === 0) return "empty";
    if (!(len >= MIN_PAYLOAD && at + w + len <= limit)) continue;
    if (trailerAt(src, at + w + len)) return { start: at + w, end: at + w + len };
  }
  return null;
}

export function legacyTail(src: ByteSource): Located | null {
  if (src.size < 8 + MIN_PAYLOAD) return null;
  const total = src.read(src.size - 8, 8, "Bun legacy length").readBigUInt64LE(0);
  if (total !== BigInt(src.size) || !trailerAt(src, src.size - 8)) return null;
  return { format: "bun-legacy", start: undefined, trailerEnd: src.size - 8, where: `Bun appended payload (trailer at ${src.size - 24})` };
}

export function probeElf(src: ByteSource): Probe {
  const elf = readElf(src);
  const notes: string[] = [];
  let imageEnd = elf.shoff + elf.shSize;
  for (const s of elf.segments) if (s.filesz > 0) imageEnd = Math.max(imageEnd, s.offset + s.filesz);
  for (const s of elf.sections) if (s.type !== SHT_NOBITS && s.type !== 0) imageEnd = Math.max(imageEnd, s.offset + s.size);
  const rodata = elf.sections.filter((s) => s.name === ".rodata").map((s) => ({ start: s.offset, end: s.offset + s.size }));
  // Without section names, the read-only (not writable, not executable) loads hold the strings.
  const runtimeRegions = rodata.length
    ? rodata
    : elf.segments.filter((s) => s.type === PT_LOAD && s.flags === 4).map((s) => ({ start: s.offset, end: s.offset + s.filesz }));
  const probe: Probe = { family: "bun-elf", found: null, empty: false, problem: null, runtimeRegions, scanRegions: [], imageEnd, notes };

  const bun = elf.sections.find((s) => s.name === ".bun");
  if (!bun) {
    // Section headers stripped: nothing says where a payload could be, so the whole file is fair game.
    probe.scanRegions = elf.sections.length === 0 ? [{ start: 0, end: src.size }] : [];
    return probe;
  }
  const where = `Bun .bun section at ${bun.offset}`;
  if (bun.size < 8) {
    probe.problem = `${where}: ${bun.size} bytes, too small for a length`;
    return probe;
  }
  // Released binaries re-point the section at [u64 len][payload]; the template's section is an
  // 8-byte slot that --compile may instead fill with the block's virtual address.
  if (bun.size > 8) {
    const got = lengthPrefixed(src, bun.offset, src.size, [8]);
    if (got === "empty") probe.empty = true;
    else if (got) probe.found = { format: "bun-elf", start: got.start, trailerEnd: got.end, where };
    if (got) return probe;
  }
  const slot = u64(src, bun.offset);
  if (slot === 0) {
    probe.empty = true;
    return probe;
  }
  const at = Number.isNaN(slot) ? null : vaddrToOffset(elf, slot);
  if (at === null) {
    probe.problem = `${where}: neither a [length][payload] block nor a slot holding a mapped address (0x${slot.toString(16)})`;
    probe.scanRegions = [{ start: bun.offset, end: bun.offset + bun.size }];
    return probe;
  }
  const got = lengthPrefixed(src, at, src.size, [8]);
  if (got && got !== "empty")
    probe.found = { format: "bun-elf", start: got.start, trailerEnd: got.end, where: `${where} → block at ${at}` };
  else probe.problem = `${where}: slot points at file offset ${at}, which holds no [length][payload] block`;
  return probe;
}

export function probeMacho(src: ByteSource): Probe {
  const slices = readMacho(src);
  const notes: string[] = [];
  let imageEnd = 0;
  for (const m of slices) {
    imageEnd = Math.max(imageEnd, m.base + (slices.length > 1 ? m.size : 0));
    for (const s of m.segments) if (s.filesize > 0) imageEnd = Math.max(imageEnd, s.fileoff + s.filesize);
  }
  const probe: Probe = {
    family: "bun-macho",
    found: null,
    empty: false,
    problem: null,
    runtimeRegions: [],
    scanRegions: [],
    imageEnd,
    notes,
  };
  const withPayload: Array<{ m: MachoFile; got: { start: number; end: number } }> = [];
  for (const m of slices) {
    const sect = m.segments.find((s) => s.segname === "__BUN")?.sections.find((s) => s.sectname === "__bun");
    if (!sect) continue;
    const seg = m.segments.find((s) => s.segname === "__BUN")!;
    const limit = Math.min(seg.fileoff + seg.filesize, m.base + m.size);
    const got = lengthPrefixed(src, sect.offset, limit, [8, 4]);
    if (got === "empty") probe.empty = true;
    else if (got) withPayload.push({ m, got });
    else probe.problem = `Bun __BUN,__bun section at ${sect.offset}: no [length][payload] block ending in the trailer`;
  }
  const first = withPayload[0];
  const chosen = first?.m ?? slices[0]!;
  const text = chosen.segments.find((s) => s.segname === "__TEXT");
  for (const name of ["__cstring", "__const"]) {
    const s = text?.sections.find((x) => x.sectname === name);
    if (s && s.offset) probe.runtimeRegions.push({ start: s.offset, end: s.offset + s.size });
  }
  if (first) {
    probe.found = {
      format: "bun-macho",
      start: first.got.start,
      trailerEnd: first.got.end,
      where: `Bun __BUN,__bun section at ${first.got.start - 8}`,
    };
    if (slices.length > 1)
      notes.push(
        `fat Mach-O with ${slices.length} slices; modules listed from the slice at ${first.m.base} (cputype 0x${first.m.cputype.toString(16)})${withPayload.length > 1 ? `; ${withPayload.length - 1} other slice(s) carry their own payload` : ""}`,
      );
  }
  return probe;
}

export function probePe(src: ByteSource): Probe {
  const pe = readPe(src);
  let imageEnd = pe.headersEnd;
  for (const s of pe.sections) if (s.sizeOfRawData > 0) imageEnd = Math.max(imageEnd, s.pointerToRawData + s.sizeOfRawData);
  const rdata = pe.sections
    .filter((s) => s.name === ".rdata")
    .map((s) => ({ start: s.pointerToRawData, end: s.pointerToRawData + s.sizeOfRawData }));
  const probe: Probe = {
    family: "bun-pe",
    found: null,
    empty: false,
    problem: null,
    runtimeRegions: rdata,
    scanRegions: [],
    imageEnd,
    notes: [],
  };
  const bun = pe.sections.find((s) => s.name === ".bun");
  if (!bun) return probe;
  const limit = bun.pointerToRawData + bun.sizeOfRawData;
  const got = lengthPrefixed(src, bun.pointerToRawData, limit, [8, 4]);
  if (got === "empty") probe.empty = true;
  else if (got)
    probe.found = { format: "bun-pe", start: got.start, trailerEnd: got.end, where: `Bun .bun section at ${bun.pointerToRawData}` };
  else {
    probe.problem = `Bun .bun section at ${bun.pointerToRawData}: no [length][payload] block ending in the trailer`;
    probe.scanRegions = [{ start: bun.pointerToRawData, end: limit }];
  }
  return probe;
}

/** Appended data after the image, stopping at a PE certificate table (which a signer appends last). */
export function overlay(src: ByteSource, probe: Probe): Region | null {
  let end = src.size;
  if (probe.family === "bun-pe") {
    try {
      const cert = readPe(src).dataDirectories[IMAGE_DIRECTORY_ENTRY_SECURITY];
      // The security directory's "RVA" is a plain file offset.
      if (cert && cert.size > 0 && cert.rva >= probe.imageEnd && cert.rva <= src.size) end = cert.rva;
    } catch (e) {
      if (!(e instanceof MalformedInput)) throw e;
    }
  }
  return end - probe.imageEnd >= MIN_PAYLOAD ? { start: probe.imageEnd, end } : null;
}
