import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";
import { rangeContainer } from "./container.js";
import { elfNotes, isElf, readElf } from "./elf.js";
import { isMacho, readMacho } from "./macho.js";
import { decodeSeaBlob, hasSeaMagic, legacyCodeBlob, type SeaBlob } from "./node-sea-blob.js";
import { isPe, peResources, readPe } from "./pe.js";
import type { Container, ContainerFormat, ModuleEntry } from "./types.js";

/**
 * Node single executable applications (docs/container-formats.md §2). postject puts the blob
 * where the runtime's postject_find_resource looks for it, so only the executable's own tables
 * are read to find it:
 *   ELF    a note named NODE_SEA_BLOB (in a PT_NOTE segment; desc = blob)
 *   Mach-O section __NODE_SEA_BLOB of segment NODE_SEA (or postject's default __POSTJECT)
 *   PE     resource RT_RCDATA (10) named NODE_SEA_BLOB
 * Node 18.16–19.x used the same carriers under the name NODE_JS_CODE (Mach-O segment NODE_JS)
 * and injected the script itself instead of a blob.
 * The fuse string `NODE_SEA_FUSE_…:1` is not searched: it costs a full scan and tells nothing
 * the structural location does not.
 */

export const SEA_RESOURCE = "NODE_SEA_BLOB";
/** Node 18.16–19.x injected the script itself under this name (fuse NODE_JS_FUSE_…), Mach-O segment NODE_JS. */
export const LEGACY_RESOURCE = "NODE_JS_CODE";

/** The resource names the runtimes look for, with their Mach-O segment names (postject's default __POSTJECT too). */
const RESOURCES: Array<{ name: string; legacy: boolean; machoSegments: string[] }> = [
  { name: SEA_RESOURCE, legacy: false, machoSegments: ["NODE_SEA", "__POSTJECT"] },
  { name: LEGACY_RESOURCE, legacy: true, machoSegments: ["NODE_JS", "__POSTJECT"] },
];
const RT_RCDATA = 10;
const SHT_NOBITS = 8;

/** Where a blob was found: its absolute range and the carrier region the headers point at. */
export interface SeaLocation {
  format: ContainerFormat;
  /** The blob itself. */
  start: number;
  size: number;
  /** The resource is NODE_JS_CODE (18.16–19.x): the script itself, not a blob. */
  legacy: boolean;
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

function several(n: number, what: string): string[] {
  return n > 1 ? [`${n} ${what}; the first is listed`] : [];
}

function locate(src: ByteSource): SeaLocation | null {
  const head = src.read(0, Math.min(src.size, 4096), "header");
  if (isElf(head)) {
    const elf = readElf(src);
    // Only PT_NOTE segments: that is where the runtime looks (dl_iterate_phdr), and postject's
    // LIEF rewrite leaves SHT_NOTE section headers (e.g. .gnu.build.attributes) pointing at
    // unrelated bytes, which would read as overrunning notes.
    const notes = elfNotes(src, { ...elf, sections: [] });
    for (const res of RESOURCES) {
      const hits = notes.filter((n) => n.name === res.name);
      if (hits.length === 0) continue;
      const n = hits[0]!;
      const ro = elf.sections.find((s) => s.name === ".rodata" && s.type !== SHT_NOBITS);
      return {
        format: "node-sea-elf",
        start: n.descStart,
        size: n.descSize,
        legacy: res.legacy,
        carrier: `ELF note ${res.name} (type ${n.type})`,
        rodata: ro ? { start: ro.offset, size: ro.size } : null,
        notes: several(hits.length, `ELF notes named ${res.name}`),
      };
    }
    return null;
  }
  if (isMacho(head)) {
    const slices = readMacho(src);
    for (const res of RESOURCES) {
      const sectname = `__${res.name}`;
      const found: SeaLocation[] = [];
      for (const m of slices) {
        for (const seg of m.segments) {
          if (!res.machoSegments.includes(seg.segname)) continue;
          const sect = seg.sections.find((s) => s.sectname === sectname);
          if (!sect) continue;
          if (sect.offset === 0) throw new SeaClaimed(src.path, `Mach-O: ${seg.segname},${sectname} has no file bytes`);
          const text = m.segments.find((s) => s.segname === "__TEXT");
          const ro = text?.sections.find((s) => s.sectname === "__cstring") ?? text?.sections.find((s) => s.sectname === "__const");
          found.push({
            format: "node-sea-macho",
            start: sect.offset,
            size: sect.size,
            legacy: res.legacy,
            carrier: `Mach-O ${seg.segname},${sectname}${slices.length > 1 ? ` (fat slice at ${m.base}, cputype 0x${m.cputype.toString(16)})` : ""}`,
            rodata: ro && ro.offset > 0 ? { start: ro.offset, size: ro.size } : null,
            notes: [],
          });
        }
      }
      if (found.length === 0) continue;
      const first = found[0]!;
      first.notes.push(...several(found.length, `Mach-O slices carry ${sectname}`));
      return first;
    }
    return null;
  }
  if (isPe(head)) {
    const pe = readPe(src);
    const resources = peResources(src, pe);
    for (const res of RESOURCES) {
      const hits = resources.filter((r) => r.type === RT_RCDATA && typeof r.name === "string" && r.name.toUpperCase() === res.name);
      if (hits.length === 0) continue;
      const r = hits[0]!;
      const ro = pe.sections.find((s) => s.name === ".rdata");
      return {
        format: "node-sea-pe",
        start: r.start,
        size: r.size,
        legacy: res.legacy,
        carrier: `PE resource RT_RCDATA/${res.name} (lang ${r.lang})`,
        rodata: ro ? { start: ro.pointerToRawData, size: ro.sizeOfRawData } : null,
        notes: several(hits.length, `RT_RCDATA resources named ${res.name}`),
      };
    }
    return null;
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
        bytecode: blob.codeCache !== null && blob.codeCache.end > blob.codeCache.start,
        start: blob.main.start,
        end: blob.main.end,
        extra: {
          role: "main",
          ...(blob.codeCache ? { codeCache: { start: blob.codeCache.start, end: blob.codeCache.end } } : {}),
        },
      };
  const assets = blob.assets.map((a): ModuleEntry => ({
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
  }));
  return [main, ...assets];
}

/** Node single executable application (ELF note / Mach-O segment / PE resource). null if not SEA. */
export function readNodeSea(src: ByteSource, input: string): Container | null {
  const loc = locateNodeSea(src);
  if (!loc) return null;
  let blob: SeaBlob;
  if (loc.legacy) {
    blob = legacyCodeBlob(loc.start, loc.size);
  } else {
    if (loc.size < 4 || !hasSeaMagic(src.read(loc.start, 4, "SEA blob magic"))) {
      throw new MalformedInput(
        src.path,
        `Node SEA: ${loc.carrier} at ${loc.start} (${loc.size} bytes) does not start with the SEA magic 20 da 43 01`,
      );
    }
    blob = decodeSeaBlob({ src, start: loc.start, size: loc.size });
  }
  const notes = [...loc.notes, `blob: ${loc.carrier}, ${loc.size} bytes at ${loc.start}; ${blob.versionGuess}`];
  if (blob.useSnapshot) notes.push("built with useSnapshot: the main entry is a V8 startup snapshot, not JavaScript source");
  if (blob.codeCache)
    notes.push(`V8 code cache for the main script: ${blob.codeCache.end - blob.codeCache.start} bytes at ${blob.codeCache.start}`);
  if (blob.flags & ~31)
    notes.push(
      `blob flags 0x${blob.flags.toString(16)} include bits this reader does not know (a newer Node); the layout still decoded exactly`,
    );
  if (blob.execArgv.length > 0) notes.push(`execArgv: ${JSON.stringify(blob.execArgv)}`);
  if (blob.headerSize === 4) notes.push("raw 20.0-era blob: the main script's path is not stored; listed as main.js");
  if (blob.headerSize === 0)
    notes.push(`${LEGACY_RESOURCE} resource (Node 18.16–19.x): the script itself; its path is not stored; listed as main.js`);
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
