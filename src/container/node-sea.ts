import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";
import { rangeContainer } from "./container.js";
import { elfNotes, isElf, readElf } from "./elf.js";
import { isMacho, readMacho } from "./macho.js";
import { decodeSeaBlob, hasSeaMagic, type SeaBlob } from "./node-sea-blob.js";
import { isPe, peResources, readPe } from "./pe.js";
import type { Container, ContainerFormat, ModuleEntry } from "./types.js";

/**
 * Node single executable applications (docs/container-formats.md §2). postject puts the blob
 * where the runtime's postject_find_resource looks for it, so only the executable's own tables
 * are read to find it:
 *   ELF    a note named NODE_SEA_BLOB (in a PT_NOTE segment; desc = blob)
 *   Mach-O section __NODE_SEA_BLOB of segment NODE_SEA (or postject's default __POSTJECT)
 *   PE     resource RT_RCDATA (10) named NODE_SEA_BLOB
 * The fuse string `NODE_SEA_FUSE_…:1` is not searched: it costs a full scan and tells nothing
 * the structural location does not.
 */

export const SEA_RESOURCE = "NODE_SEA_BLOB";
export const SEA_MACHO_SEGMENTS = ["NODE_SEA", "__POSTJECT"];
export const SEA_MACHO_SECTION = "__NODE_SEA_BLOB";
const RT_RCDATA = 10;

/** Where a blob was found: its absolute range and the carrier region the headers point at. */
export interface SeaLocation {
  format: ContainerFormat;
  /** The blob itself. */
  start: number;
  size: number;
  /** Human-readable carrier (`ELF note NODE_SEA_BLOB`, `Mach-O NODE_SEA,__NODE_SEA_BLOB`, …). */
  carrier: string;
  /** Region of the file the runtime-version search may look in (read-only data of the same image), if any. */
  rodata: { start: number; size: number } | null;
  notes: string[];
}

/**
 * Locate the SEA blob using only the executable's headers; null if the file carries none.
 * Executable headers too broken to read mean "not claimed" (null), not an error: this reader
 * only owns a file once it has found the blob's carrier.
 */
export function locateNodeSea(src: ByteSource): SeaLocation | null {
  try {
    return locate(src);
  } catch (e) {
    if (e instanceof MalformedInput && !(e instanceof SeaClaimed)) return null;
    throw e;
  }
}

/** A structural problem found after the SEA carrier was identified: the input is ours and broken. */
class SeaClaimed extends MalformedInput {}

function locate(src: ByteSource): SeaLocation | null {
  const head = src.read(0, Math.min(src.size, 4096), "header");
  if (isElf(head)) {
    const elf = readElf(src);
    // Only PT_NOTE segments: that is where the runtime looks (dl_iterate_phdr), and postject's
    // LIEF rewrite leaves SHT_NOTE section headers (e.g. .gnu.build.attributes) pointing at
    // unrelated bytes, which would read as overrunning notes.
    const hits = elfNotes(src, { ...elf, sections: [] }).filter((n) => n.name === SEA_RESOURCE);
    if (hits.length === 0) return null;
    const n = hits[0]!;
    const ro = elf.sections.find((s) => s.name === ".rodata" && s.type !== 8 /* NOBITS */);
    return {
      format: "node-sea-elf",
      start: n.descStart,
      size: n.descSize,
      carrier: `ELF note ${SEA_RESOURCE} (type ${n.type})`,
      rodata: ro ? { start: ro.offset, size: ro.size } : null,
      notes: hits.length > 1 ? [`${hits.length} ELF notes named ${SEA_RESOURCE}; the first (at ${n.descStart}) is listed`] : [],
    };
  }
  if (isMacho(head)) {
    const slices = readMacho(src);
    const found: SeaLocation[] = [];
    for (const m of slices) {
      for (const seg of m.segments) {
        if (!SEA_MACHO_SEGMENTS.includes(seg.segname)) continue;
        const sect = seg.sections.find((s) => s.sectname === SEA_MACHO_SECTION);
        if (!sect) continue;
        if (sect.offset === 0) throw new SeaClaimed(src.path, `Mach-O: ${seg.segname},${SEA_MACHO_SECTION} has no file bytes`);
        const text = m.segments.find((s) => s.segname === "__TEXT");
        const ro = text?.sections.find((s) => s.sectname === "__cstring") ?? text?.sections.find((s) => s.sectname === "__const");
        found.push({
          format: "node-sea-macho",
          start: sect.offset,
          size: sect.size,
          carrier: `Mach-O ${seg.segname},${SEA_MACHO_SECTION}${slices.length > 1 ? ` (fat slice at ${m.base}, cputype 0x${m.cputype.toString(16)})` : ""}`,
          rodata: ro && ro.offset > 0 ? { start: ro.offset, size: ro.size } : null,
          notes: [],
        });
      }
    }
    if (found.length === 0) return null;
    const first = found[0]!;
    if (found.length > 1) first.notes.push(`${found.length} Mach-O slices carry a SEA blob; the first (${first.carrier}) is listed`);
    return first;
  }
  if (isPe(head)) {
    const pe = readPe(src);
    const hits = peResources(src, pe).filter(
      (r) => r.type === RT_RCDATA && typeof r.name === "string" && r.name.toUpperCase() === SEA_RESOURCE,
    );
    if (hits.length === 0) return null;
    const r = hits[0]!;
    const ro = pe.sections.find((s) => s.name === ".rdata");
    return {
      format: "node-sea-pe",
      start: r.start,
      size: r.size,
      carrier: `PE resource RT_RCDATA/${SEA_RESOURCE} (lang ${r.lang})`,
      rodata: ro ? { start: ro.pointerToRawData, size: ro.sizeOfRawData } : null,
      notes: hits.length > 1 ? [`${hits.length} RT_RCDATA resources named ${SEA_RESOURCE}; the first is listed`] : [],
    };
  }
  return null;
}

/** How far into the read-only data the runtime-version search goes, and its chunk size. */
const VERSION_SCAN_LIMIT = 8 << 20;
const VERSION_CHUNK = 1 << 20;
const VERSION_RE = /(?:download\/release|node\.js)\/v(\d{1,3}\.\d{1,3}\.\d{1,4})\b/;

/**
 * "Node vX.Y.Z" from the release URL or user-agent string node keeps near the start of its
 * read-only data (observed within the first 3 MB of .rodata/.rdata/__cstring in 20.x–26.x).
 * Reads at most VERSION_SCAN_LIMIT bytes; null when not found there.
 */
export function findNodeVersion(src: ByteSource, region: { start: number; size: number } | null): string | null {
  if (!region) return null;
  const end = Math.min(region.start + region.size, region.start + VERSION_SCAN_LIMIT, src.size);
  const overlap = 64;
  for (let p = region.start; p < end; p += VERSION_CHUNK) {
    const len = Math.min(VERSION_CHUNK + overlap, end - p);
    const m = VERSION_RE.exec(src.read(p, len, "runtime version search").toString("latin1"));
    if (m) return `Node v${m[1]}`;
  }
  return null;
}

/** The modules of a decoded blob: the main script (or snapshot) and each asset. */
export function seaModules(blob: SeaBlob): ModuleEntry[] {
  const mainPath = blob.codePath ?? "main.js";
  const main: ModuleEntry = blob.useSnapshot
    ? {
        path: mainPath,
        kind: "asset",
        loader: "v8-snapshot",
        moduleFormat: "none",
        encoding: "binary",
        size: blob.main.end - blob.main.start,
        bytecode: false,
        start: blob.main.start,
        end: blob.main.end,
        extra: { role: "main", snapshot: true },
      }
    : {
        path: mainPath,
        kind: "js",
        loader: "js",
        moduleFormat: blob.mainFormat === "esm" ? "esm" : "cjs",
        encoding: "utf8",
        size: blob.main.end - blob.main.start,
        bytecode: blob.codeCache !== null,
        start: blob.main.start,
        end: blob.main.end,
        extra: {
          role: "main",
          ...(blob.codeCache ? { codeCache: { start: blob.codeCache.start, end: blob.codeCache.end } } : {}),
        },
      };
  const assets = blob.assets.map(
    (a): ModuleEntry => ({
      path: a.key,
      kind: "asset",
      loader: "file",
      moduleFormat: "none",
      encoding: "binary",
      size: a.end - a.start,
      bytecode: false,
      start: a.start,
      end: a.end,
      extra: { role: "asset" },
    }),
  );
  return [main, ...assets];
}

/** Node single executable application (ELF note / Mach-O segment / PE resource). null if not SEA. */
export function readNodeSea(src: ByteSource, input: string): Container | null {
  const loc = locateNodeSea(src);
  if (!loc) return null;
  if (loc.size < 4 || !hasSeaMagic(src.read(loc.start, 4, "SEA blob magic"))) {
    throw new MalformedInput(src.path, `Node SEA: ${loc.carrier} at ${loc.start} (${loc.size} bytes) does not start with the SEA magic 20 da 43 01`);
  }
  const blob = decodeSeaBlob({ src, start: loc.start, size: loc.size });
  const notes = [...loc.notes, `blob: ${loc.carrier}, ${loc.size} bytes at ${loc.start}; ${blob.versionGuess}`];
  if (blob.useSnapshot) notes.push("built with useSnapshot: the main entry is a V8 startup snapshot, not JavaScript source");
  if (blob.codeCache) notes.push(`V8 code cache for the main script: ${blob.codeCache.end - blob.codeCache.start} bytes at ${blob.codeCache.start}`);
  if (blob.execArgv.length > 0) notes.push(`execArgv: ${JSON.stringify(blob.execArgv)}`);
  if (blob.headerSize === 4) notes.push("raw 20.0-era blob: the main script's path is not stored; listed as main.js");
  const modules = seaModules(blob);
  return rangeContainer(src, {
    input,
    format: loc.format,
    runtime: findNodeVersion(src, loc.rodata),
    entry: modules[0]!.path,
    modules,
    notes,
  });
}
