import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";
import type { Encoding, ModuleEntry, ModuleFormat, ModuleKind } from "./types.js";

/**
 * Bun's standalone "module graph" payload, independent of the container that carries it:
 *
 *   [regions addressed by {u32 offset, u32 length} pointers][Offsets][TRAILER]
 *
 * All pointers are relative to the payload start. Field widths changed across releases
 * (Offsets 24 → 32 bytes, module records 32 → 28 → 36 → 52 bytes), so both are chosen by
 * validating the structure rather than trusting a version string.
 */

export const BUN_TRAILER = Buffer.from("\n---- Bun! ----\n", "latin1");

/** Virtual roots by era: 1.0.0–1.0.2x, then POSIX targets, then Windows targets. */
export const BUN_VIRTUAL_ROOTS = ["compiled://root/", "/$bunfs/root/", "B:/~BUN/root/", "B:\\~BUN\\root\\"];

/** Record layouts, tried in this order (newest first: the common case). */
const RECORD_SIZES = [52, 36, 28, 32] as const;
type RecordSize = (typeof RECORD_SIZES)[number];

/** Module tables beyond this are not plausible (claude has ~4000 modules × 52 B = 200 KB). */
const MAX_TABLE_BYTES = 64 << 20;
/**
 * Modules read from one graph at most (claude has ~4000). Every module is an entry held while the input is open
 * and a line of a listing; a table with more is refused (MalformedInput, exit 5) before any entry is made. At
 * this limit and MAX_NAME_BYTES together (250,000 modules, 128-byte names) `extract --list --json` peaked at
 * 270 MB and `lift` at 320 MB here (test/host-bounds-extract.test.ts).
 */
export const MAX_MODULES = 250_000;
/**
 * Bytes of module names at most, all records counted (names may share bytes, so records pointing at one long
 * name would otherwise make gigabytes of names out of a small file). claude's names take ~200 KB.
 */
export const MAX_NAME_BYTES = 32 << 20;
/**
 * Bytes of contents that modules share (identical ranges, as deduplication may leave) counted beyond their first
 * module: each module's text is read and decoded on its own, so 2,000 modules pointing at one megabyte are two
 * gigabytes of text. Refused (exit 5) beyond this.
 */
export const MAX_SHARED_CONTENTS = 64 << 20;
/** Longest plausible virtual path. */
const MAX_NAME = 4096;
/** Names are read in one piece when they span at most this much, else one read per name. */
const NAME_SPAN_READ = 8 << 20;

/**
 * `bun.options.Loader` names. The enum was renumbered when `jsonc` was inserted at 7: every
 * loader from `toml` on moved up by one. Which numbering a binary uses is decided in
 * chooseLoaderNumbering below.
 */
const LOADERS_OLD = [
  "jsx",
  "js",
  "ts",
  "tsx",
  "css",
  "file",
  "json",
  "toml",
  "wasm",
  "napi",
  "base64",
  "dataurl",
  "text",
  "bunsh",
  "sqlite",
  "sqlite_embedded",
  "html",
];
const LOADERS_NEW = [
  "jsx",
  "js",
  "ts",
  "tsx",
  "css",
  "file",
  "json",
  "jsonc",
  "toml",
  "wasm",
  "napi",
  "base64",
  "dataurl",
  "text",
  "bunsh",
  "sqlite",
  "sqlite_embedded",
  "html",
  "yaml",
  "json5",
  "md",
  "url",
];
export type LoaderNumbering = "old" | "new";

export interface BunGraph {
  modules: ModuleEntry[];
  entry: string | null;
  /** Absolute file offset of the payload start (base of all pointers). */
  start: number;
  /** Absolute file offset just past the trailer. */
  end: number;
  offsetsSize: 24 | 32;
  recordSize: RecordSize;
  flags: number;
  execArgv: string | null;
  loaderNumbering: LoaderNumbering;
}

interface Sp {
  off: number;
  len: number;
}

function sp(b: Buffer, o: number): Sp {
  return { off: b.readUInt32LE(o), len: b.readUInt32LE(o + 4) };
}
const NO_SP: Sp = { off: 0, len: 0 };

/**
 * Where each field sits in a record, per record size. Pointers are counted in u32 words from
 * the record start (every record size is a multiple of 4); -1 = the field did not exist yet.
 */
interface Layout {
  /** Word index of each pointer's offset (its length is the next word). */
  name: number;
  contents: number;
  sourcemap: number;
  bytecode: number;
  moduleInfo: number;
  originPath: number;
  /** Byte positions of the u8 enums. */
  encoding: number;
  loader: number;
  format: number;
  side: number;
}
const LAYOUT: Record<RecordSize, Layout> = {
  32: { name: 0, contents: 2, sourcemap: 4, bytecode: -1, moduleInfo: -1, originPath: -1, encoding: -1, loader: 24, format: -1, side: -1 }, // 1.0.0–1.1.21
  28: { name: 0, contents: 2, sourcemap: 4, bytecode: -1, moduleInfo: -1, originPath: -1, encoding: 24, loader: 25, format: -1, side: -1 }, // 1.1.22–1.1.29
  36: { name: 0, contents: 2, sourcemap: 4, bytecode: 6, moduleInfo: -1, originPath: -1, encoding: 32, loader: 33, format: 34, side: 35 }, // 1.1.30–1.3.8
  52: { name: 0, contents: 2, sourcemap: 4, bytecode: 6, moduleInfo: 8, originPath: 10, encoding: 48, loader: 49, format: 50, side: 51 }, // 1.3.9+
};

/**
 * The module table as u32 words plus its bytes. Thousands of records are validated without
 * creating an object per record (a 4000-module table is checked in well under a millisecond).
 */
class Table {
  readonly words: Uint32Array;
  readonly count: number;
  readonly stride: number;
  readonly layout: Layout;
  constructor(
    readonly bytes: Buffer,
    readonly size: RecordSize,
  ) {
    this.count = bytes.length / size;
    this.stride = size / 4;
    this.layout = LAYOUT[size];
    this.words = toWords(bytes);
  }
  /** Offset and length words of pointer field `w` of record i (0/0 for a field this layout lacks). */
  off(i: number, w: number): number {
    return w < 0 ? 0 : this.words[i * this.stride + w]!;
  }
  len(i: number, w: number): number {
    return w < 0 ? 0 : this.words[i * this.stride + w + 1]!;
  }
  u8(i: number, at: number): number | null {
    return at < 0 ? null : this.bytes[i * this.size + at]!;
  }
}

const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian u32 view of `b` (copied when unaligned or on a big-endian host). */
function toWords(b: Buffer): Uint32Array {
  const n = b.length >>> 2;
  if (HOST_LE && b.byteOffset % 4 === 0) return new Uint32Array(b.buffer, b.byteOffset, n);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = b.readUInt32LE(i * 4);
  return out;
}

/**
 * Old or new loader numbering. Determined by building a probe that embeds a `.node` file
 * (napi: 9 old, 10 new) with consecutive releases: 1.2.4 is the last old one, 1.2.5 the first
 * new one. So 28/32-byte records (≤1.1.29) are always old and 52-byte records (≥1.3.9) always
 * new; 36-byte records (1.1.30–1.3.8) straddle the change, and there the Bun version decides
 * when the runtime string was found. Without it, the table itself: a `.node` file is napi, and
 * values above 16 exist only in the new enum. With no evidence either way the newer numbering
 * is assumed (it covers more of the 36-byte releases); the two agree on jsx…json (0–6) anyway.
 */
export const NEW_LOADERS_SINCE: [number, number, number] = [1, 2, 5];

export function chooseLoaderNumbering(
  records: Array<{ name: string; loader: number }>,
  recordSize: number,
  bunVersion: () => [number, number, number] | null,
): LoaderNumbering {
  if (recordSize === 28 || recordSize === 32) return "old";
  if (recordSize === 52) return "new";
  const version = bunVersion();
  if (version) {
    for (let i = 0; i < 3; i++) if (version[i] !== NEW_LOADERS_SINCE[i]) return version[i]! > NEW_LOADERS_SINCE[i]! ? "new" : "old";
    return "new";
  }
  for (const r of records) {
    if (r.loader > 16) return "new";
    if (r.name.endsWith(".node") && r.loader === 10) return "new";
    if (r.name.endsWith(".node") && r.loader === 9) return "old";
  }
  return "new";
}

function kindOf(loader: string, path: string): ModuleKind {
  if (loader === "js" || loader === "jsx" || loader === "ts" || loader === "tsx") return "js";
  if (loader === "napi" || path.endsWith(".node")) return "native-addon";
  return "asset";
}

/** Control characters never occur in a virtual path; finding one means the layout guess is wrong. */
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface ParseOptions {
  /** Absolute offset of the payload start, when the container states it (sections do). */
  start?: number;
  /** The Bun version, for the loader-numbering decision; asked only where it decides (36-byte records), as
   *  finding it scans the executable. */
  version?: () => [number, number, number] | null;
  /** Prefix for error messages, e.g. "Bun .bun section at 166313984". */
  where: string;
}

/**
 * Parse the graph whose trailer ends at `trailerEnd` (absolute). Throws MalformedInput when the
 * trailer is there but nothing around it fits; the message names what did not fit.
 */
export function parseBunGraph(src: ByteSource, trailerEnd: number, opts: ParseOptions): BunGraph {
  const fail = (msg: string): never => {
    throw new MalformedInput(src.path, `${opts.where}: ${msg}`);
  };
  const trailerAt = trailerEnd - BUN_TRAILER.length;
  if (trailerAt < 24) fail("too short for a module graph");
  if (!src.read(trailerAt, BUN_TRAILER.length, "Bun trailer").equals(BUN_TRAILER)) fail(`no "---- Bun! ----" trailer at ${trailerAt}`);
  const problems: string[] = [];
  for (const osize of [32, 24] as const) {
    const offAt = trailerAt - osize;
    if (offAt < 0) continue;
    const off = src.read(offAt, osize, "Bun Offsets");
    const bc = off.readBigUInt64LE(0);
    if (bc > BigInt(offAt)) {
      problems.push(`${osize}-byte Offsets: byte_count ${bc} exceeds the file`);
      continue;
    }
    const byteCount = Number(bc);
    const start = offAt - byteCount;
    if (opts.start !== undefined && start !== opts.start) {
      problems.push(`${osize}-byte Offsets: byte_count ${byteCount} puts the payload at ${start}, not ${opts.start}`);
      continue;
    }
    const table = sp(off, 8);
    const entryId = off.readUInt32LE(16);
    const argv = osize === 32 ? sp(off, 20) : NO_SP;
    const flags = osize === 32 ? off.readUInt32LE(28) : 0;
    if (table.off + table.len > byteCount || table.len === 0) {
      problems.push(`${osize}-byte Offsets: module table (${table.off}, ${table.len}) is outside the ${byteCount}-byte payload`);
      continue;
    }
    if (argv.off + argv.len > byteCount) {
      problems.push(`${osize}-byte Offsets: exec-argv (${argv.off}, ${argv.len}) is outside the payload`);
      continue;
    }
    if (table.len > MAX_TABLE_BYTES) {
      problems.push(`${osize}-byte Offsets: module table of ${table.len} bytes is implausible`);
      continue;
    }
    // Even the largest layout's count is over the limit: no layout can be read (the table's size alone says so).
    if (table.len / RECORD_SIZES[0] > MAX_MODULES) {
      problems.push(
        `${osize}-byte Offsets: module table of ${table.len} bytes holds over ${MAX_MODULES} modules, more than searchlift reads`,
      );
      continue;
    }
    const got = parseTable(src, start, byteCount, table, entryId, opts, problems, osize);
    if (!got) continue;
    const execArgv = argv.len > 0 && argv.len <= 1 << 16 ? src.read(start + argv.off, argv.len, "Bun exec argv").toString("utf8") : null;
    return { ...got, start, end: trailerEnd, offsetsSize: osize, flags, execArgv };
  }
  return fail(`module graph does not parse (${problems.join("; ")})`);
}

function parseTable(
  src: ByteSource,
  start: number,
  byteCount: number,
  table: Sp,
  entryId: number,
  opts: ParseOptions,
  problems: string[],
  osize: number,
): Omit<BunGraph, "start" | "end" | "offsetsSize" | "flags" | "execArgv"> | null {
  const tb = src.read(start + table.off, table.len, "Bun module table");
  const candidates: Array<{ t: Table; names: string[]; rooted: boolean }> = [];
  for (const size of RECORD_SIZES) {
    if (table.len % size !== 0) continue;
    const t = new Table(tb, size);
    const why = (m: string) => problems.push(`${osize}-byte Offsets, ${size}-byte records: ${m}`);
    if (entryId >= t.count) {
      why(`entry id ${entryId} ≥ module count ${t.count}`);
      continue;
    }
    if (t.count > MAX_MODULES) {
      why(`${t.count} modules, more than the ${MAX_MODULES} searchlift reads`);
      continue;
    }
    const bad = validate(t, byteCount, table);
    if (bad) {
      why(bad);
      continue;
    }
    const nameBytes = namesTotal(t);
    if (nameBytes > MAX_NAME_BYTES) {
      why(`module names total ${nameBytes} bytes (records share them), more than the ${MAX_NAME_BYTES} searchlift reads`);
      continue;
    }
    const names = readNames(src, start, t);
    const unprintable = names.findIndex((n) => CONTROL.test(n));
    if (unprintable >= 0) {
      why(`record ${unprintable} name is not a printable path`);
      continue;
    }
    candidates.push({ t, names, rooted: names.every((n) => BUN_VIRTUAL_ROOTS.some((r) => n.startsWith(r))) });
  }
  // Several layouts can divide the table length; a layout whose names all carry a virtual root wins.
  const pick = candidates.find((c) => c.rooted) ?? candidates[0];
  if (!pick) return null;
  const { t, names } = pick;
  const L = t.layout;
  checkContentsDisjoint(src, t, opts.where);
  const numbering = chooseLoaderNumbering(
    names.map((name, i) => ({ name, loader: t.u8(i, L.loader)! })),
    t.size,
    opts.version ?? (() => null),
  );
  const loaderNames = numbering === "new" ? LOADERS_NEW : LOADERS_OLD;
  const modules = names.map((path, i): ModuleEntry => {
    const loaderId = t.u8(i, L.loader)!;
    const loader = loaderNames[loaderId] ?? `loader#${loaderId}`;
    const kind = kindOf(loader, path);
    const encoding = encodingOf(t.u8(i, L.encoding), kind);
    const off = t.off(i, L.contents);
    const len = t.len(i, L.contents);
    if (encoding === "utf16le" && len % 2 !== 0) {
      throw new MalformedInput(src.path, `${opts.where}: module ${path} is UTF-16LE but ${len} bytes long`);
    }
    const sourcemap = t.len(i, L.sourcemap);
    const bytecode = t.len(i, L.bytecode);
    const side = t.u8(i, L.side);
    const extra: Record<string, unknown> = { loaderId, sourcemap: sourcemap > 0 };
    if (sourcemap > 0) extra.sourcemapSize = sourcemap;
    if (bytecode > 0) extra.bytecodeSize = bytecode;
    if (side !== null) extra.side = side === 1 ? "client" : "server";
    if (t.len(i, L.moduleInfo) > 0) extra.moduleInfo = true;
    return {
      path,
      kind,
      loader,
      moduleFormat: formatOf(t.u8(i, L.format)),
      encoding,
      size: len,
      bytecode: bytecode > 0,
      start: start + off,
      end: start + off + len,
      extra,
    };
  });
  return { modules, entry: modules[entryId]!.path, recordSize: t.size, loaderNumbering: numbering };
}

/** Every pointer inside the payload, plausible names and enums, contents clear of the table; the first problem found, or null. */
function validate(t: Table, byteCount: number, table: Sp): string | null {
  const L = t.layout;
  const { words, bytes, stride, size } = t;
  // Word indexes of the pointer fields after name (contents first), for a tight loop.
  const ptrs = [L.contents, L.sourcemap, L.bytecode, L.moduleInfo, L.originPath].filter((w) => w >= 0);
  const tableEnd = table.off + table.len;
  const maxLoader = 21;
  for (let i = 0, w = 0, b = 0; i < t.count; i++, w += stride, b += size) {
    const nOff = words[w + L.name]!;
    const nLen = words[w + L.name + 1]!;
    if (nLen === 0 || nLen > MAX_NAME || nOff + nLen > byteCount) return `record ${i} name (${nOff}, ${nLen}) out of range`;
    for (let k = 0; k < ptrs.length; k++) {
      const o = words[w + ptrs[k]!]!;
      const n = words[w + ptrs[k]! + 1]!;
      if (o + n > byteCount)
        return k === 0 ? `record ${i} contents (${o}, ${n}) outside the payload` : `record ${i} has a pointer outside the payload`;
    }
    if (
      bytes[b + L.loader]! > maxLoader ||
      (L.encoding >= 0 && bytes[b + L.encoding]! > 2) ||
      (L.format >= 0 && bytes[b + L.format]! > 2) ||
      (L.side >= 0 && bytes[b + L.side]! > 1)
    ) {
      return `record ${i} has out-of-range enum values`;
    }
    const cOff = words[w + L.contents]!;
    const cLen = words[w + L.contents + 1]!;
    if (cLen > 0 && cOff < tableEnd && table.off < cOff + cLen) return `record ${i} contents overlap the module table`;
  }
  return null;
}

/**
 * Contents of different modules never share bytes (bytecode does, by design, in 1.4's linked
 * bytecode blob, so only contents are checked). Identical ranges are tolerated as deduplication.
 */
function checkContentsDisjoint(src: ByteSource, t: Table, where: string): void {
  const L = t.layout;
  // Sort by start with a native numeric sort: key = start × 2^16 + index (exact below 2^53).
  const keys: number[] = [];
  const wide = t.count > 0xffff;
  for (let i = 0; i < t.count; i++) if (t.len(i, L.contents) > 0) keys.push(wide ? i : t.off(i, L.contents) * 65536 + i);
  const order = wide
    ? keys.sort((a, b) => t.off(a, L.contents) - t.off(b, L.contents))
    : Float64Array.from(keys)
        .sort()
        .map((k) => k % 65536);
  let prev = -1;
  let shared = 0;
  for (const k of order) {
    const i = k;
    if (prev >= 0) {
      const pOff = t.off(prev, L.contents);
      const pEnd = pOff + t.len(prev, L.contents);
      const cOff = t.off(i, L.contents);
      const cEnd = cOff + t.len(i, L.contents);
      const same = cOff === pOff && cEnd === pEnd;
      if (cOff < pEnd && !same)
        throw new MalformedInput(
          src.path,
          `${where}: contents of modules ${prev} and ${i} overlap ([${pOff}, ${pEnd}) and [${cOff}, ${cEnd}))`,
        );
      if (same && (shared += cEnd - cOff) > MAX_SHARED_CONTENTS)
        throw new MalformedInput(
          src.path,
          `${where}: modules share over ${MAX_SHARED_CONTENTS} bytes of contents (module ${i} repeats [${cOff}, ${cEnd}) of module ${prev}), more than searchlift reads`,
        );
      // Keep the range that reaches furthest as the one to compare against.
      if (cEnd <= pEnd) continue;
    }
    prev = i;
  }
}

/** Bytes of all records' names, each record counted (validate bounds each name by MAX_NAME). */
function namesTotal(t: Table): number {
  let total = 0;
  for (let i = 0; i < t.count; i++) total += t.len(i, t.layout.name);
  return total;
}

/** Names as UTF-8 strings. Reads the names' span at once when it is compact. */
function readNames(src: ByteSource, start: number, t: Table): string[] {
  const L = t.layout;
  let lo = Infinity;
  let hi = 0;
  for (let i = 0; i < t.count; i++) {
    const o = t.off(i, L.name);
    lo = Math.min(lo, o);
    hi = Math.max(hi, o + t.len(i, L.name));
  }
  const span = hi - lo <= NAME_SPAN_READ ? src.read(start + lo, hi - lo, "Bun module names") : null;
  const out = new Array<string>(t.count);
  for (let i = 0; i < t.count; i++) {
    const o = t.off(i, L.name);
    const n = t.len(i, L.name);
    out[i] = span ? span.toString("utf8", o - lo, o - lo + n) : src.read(start + o, n, "Bun module name").toString("utf8");
  }
  return out;
}

function encodingOf(raw: number | null, kind: ModuleKind): Encoding {
  // Before 1.1.22 there is no field: sources were stored as UTF-8 text, assets as raw bytes.
  if (raw === null) return kind === "js" ? "utf8" : "binary";
  if (raw === 1) return "latin1";
  // 2 was declared "utf8, not used yet" in the Zig era and is UTF-16LE since 1.4 — it only ever occurs as the latter.
  if (raw === 2) return "utf16le";
  return "binary";
}

function formatOf(raw: number | null): ModuleFormat {
  return raw === 1 ? "esm" : raw === 2 ? "cjs" : "none";
}

/** "Bun v1.4.6" → [1, 4, 6]. */
export function parseBunVersion(runtime: string | null): [number, number, number] | null {
  const m = runtime ? /v(\d+)\.(\d+)\.(\d+)/.exec(runtime) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}
