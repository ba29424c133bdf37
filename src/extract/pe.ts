import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";

/**
 * Minimal PE/COFF reader: section table, data directories, RVA → file offset and the resource
 * tree. Only headers and the resource directory entries are read.
 */

export interface PeSection {
  name: string;
  virtualAddress: number;
  virtualSize: number;
  pointerToRawData: number;
  sizeOfRawData: number;
  characteristics: number;
}
export interface PeFile {
  machine: number;
  /** 0x10b PE32, 0x20b PE32+. */
  magic: number;
  sections: PeSection[];
  dataDirectories: Array<{ rva: number; size: number }>;
  /** File offset just past the section table (the end of the headers proper). */
  headersEnd: number;
}

export const IMAGE_DIRECTORY_ENTRY_RESOURCE = 2;
/** The security directory holds a *file offset* (not an RVA) to the Authenticode certificate table. */
export const IMAGE_DIRECTORY_ENTRY_SECURITY = 4;

export function isPe(head: Buffer): boolean {
  if (head.length < 0x40 || head[0] !== 0x4d || head[1] !== 0x5a) return false;
  // When the head reaches e_lfanew, require the PE signature there (plain DOS programs also start with MZ).
  const lfanew = head.readUInt32LE(0x3c);
  if (lfanew + 4 <= head.length) return head.readUInt32LE(lfanew) === 0x00004550;
  return true;
}

export function readPe(src: ByteSource): PeFile {
  const bad = (msg: string): never => {
    throw new MalformedInput(src.path, `PE: ${msg}`);
  };
  if (src.size < 0x40) bad("file too short for a DOS header");
  const dos = src.read(0, 0x40, "DOS header");
  if (dos[0] !== 0x4d || dos[1] !== 0x5a) bad("no MZ magic");
  const lfanew = dos.readUInt32LE(0x3c);
  if (lfanew + 24 > src.size) bad(`PE header offset ${lfanew} lies outside the ${src.size}-byte file`);
  const coff = src.read(lfanew, 24, "PE header");
  if (coff.readUInt32LE(0) !== 0x00004550) bad(`no PE signature at ${lfanew}`);
  const machine = coff.readUInt16LE(4);
  const nsec = coff.readUInt16LE(6);
  const optSize = coff.readUInt16LE(20);
  const opt = src.read(lfanew + 24, optSize, "PE optional header");
  if (optSize < 2) bad("optional header missing");
  const magic = opt.readUInt16LE(0);
  if (magic !== 0x10b && magic !== 0x20b) bad(`unknown optional header magic 0x${magic.toString(16)}`);
  const dirCountAt = magic === 0x20b ? 108 : 92;
  const dirs: Array<{ rva: number; size: number }> = [];
  if (optSize >= dirCountAt + 4) {
    const n = Math.min(opt.readUInt32LE(dirCountAt), Math.floor((optSize - dirCountAt - 4) / 8));
    for (let i = 0; i < n; i++)
      dirs.push({ rva: opt.readUInt32LE(dirCountAt + 4 + i * 8), size: opt.readUInt32LE(dirCountAt + 8 + i * 8) });
  }
  const secAt = lfanew + 24 + optSize;
  const table = src.read(secAt, nsec * 40, "PE section table");
  const sections: PeSection[] = [];
  for (let i = 0; i < nsec; i++) {
    const o = i * 40;
    const s: PeSection = {
      name: table.toString("latin1", o, o + 8).replace(/\0.*$/s, ""),
      virtualSize: table.readUInt32LE(o + 8),
      virtualAddress: table.readUInt32LE(o + 12),
      sizeOfRawData: table.readUInt32LE(o + 16),
      pointerToRawData: table.readUInt32LE(o + 20),
      characteristics: table.readUInt32LE(o + 36),
    };
    if (s.sizeOfRawData !== 0 && s.pointerToRawData + s.sizeOfRawData > src.size) {
      bad(`section ${s.name || i} [${s.pointerToRawData}, +${s.sizeOfRawData}) lies outside the ${src.size}-byte file`);
    }
    sections.push(s);
  }
  return { machine, magic, sections, dataDirectories: dirs, headersEnd: secAt + nsec * 40 };
}

/** File offset of an RVA, via the section whose raw data holds it; null when no section does. */
export function rvaToOffset(pe: PeFile, rva: number): number | null {
  for (const s of pe.sections) {
    const span = Math.min(s.sizeOfRawData, s.virtualSize || s.sizeOfRawData);
    if (rva >= s.virtualAddress && rva < s.virtualAddress + span) return s.pointerToRawData + (rva - s.virtualAddress);
  }
  return null;
}

export interface PeResource {
  /** Numeric id, or the name string for named entries (level 1: RT_* type, e.g. 10 = RT_RCDATA). */
  type: number | string;
  name: number | string;
  lang: number;
  /** Absolute file offset of the resource data. */
  start: number;
  size: number;
}

/** Directory entries are 8 bytes; a directory can hold at most 2×65535 of them. */
const MAX_RESOURCES = 100_000;

/**
 * The resource tree flattened to its leaves (type / name / language). Handles the usual
 * three levels; deeper or shallower trees are recorded with what levels exist. Loops and
 * out-of-range pointers are reported as MalformedInput.
 */
export function peResources(src: ByteSource, pe: PeFile): PeResource[] {
  const dir = pe.dataDirectories[IMAGE_DIRECTORY_ENTRY_RESOURCE];
  if (!dir || dir.rva === 0 || dir.size === 0) return [];
  const bad = (msg: string): never => {
    throw new MalformedInput(src.path, `PE resources: ${msg}`);
  };
  const root = rvaToOffset(pe, dir.rva);
  if (root === null) bad(`resource directory RVA 0x${dir.rva.toString(16)} is not in any section`);
  const rootOff = root as number;
  // Offsets inside the tree are relative to the resource directory start; keep them inside its section.
  const sec = pe.sections.find((s) => dir.rva >= s.virtualAddress && dir.rva < s.virtualAddress + s.sizeOfRawData)!;
  const limit = sec.pointerToRawData + sec.sizeOfRawData;
  const at = (rel: number, len: number, what: string): Buffer => {
    const abs = rootOff + rel;
    if (abs + len > limit) bad(`${what} at +${rel} runs past the resource section`);
    return src.read(abs, len, what);
  };
  const nameOf = (raw: number): number | string => {
    if ((raw & 0x80000000) === 0) return raw;
    const rel = raw & 0x7fffffff;
    const len = at(rel, 2, "resource name length").readUInt16LE(0);
    return at(rel + 2, len * 2, "resource name").toString("utf16le");
  };
  const out: PeResource[] = [];
  const visited = new Set<number>();
  const walk = (rel: number, path: Array<number | string>): void => {
    if (visited.has(rel)) bad(`directory at +${rel} is reached twice (loop)`);
    visited.add(rel);
    const h = at(rel, 16, "resource directory");
    const count = h.readUInt16LE(12) + h.readUInt16LE(14);
    const ents = at(rel + 16, count * 8, "resource directory entries");
    for (let i = 0; i < count; i++) {
      const id = nameOf(ents.readUInt32LE(i * 8));
      const target = ents.readUInt32LE(i * 8 + 4);
      if (target & 0x80000000) {
        if (path.length >= 3) bad("resource tree deeper than 4 levels");
        walk(target & 0x7fffffff, [...path, id]);
        continue;
      }
      const d = at(target, 16, "resource data entry");
      const dataRva = d.readUInt32LE(0);
      const size = d.readUInt32LE(4);
      const start = size === 0 ? rootOff : rvaToOffset(pe, dataRva);
      if (start === null || start + size > src.size)
        bad(`data of resource ${[...path, id].join("/")} (RVA 0x${dataRva.toString(16)}, ${size} B) is outside the file`);
      const levels = [...path, id];
      const lang = levels.length >= 3 && typeof levels[2] === "number" ? levels[2] : 0;
      out.push({ type: levels[0]!, name: levels[1] ?? 0, lang, start: start as number, size });
      if (out.length > MAX_RESOURCES) bad(`more than ${MAX_RESOURCES} resources`);
    }
  };
  walk(0, []);
  return out;
}
