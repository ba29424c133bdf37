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
/** Longest plausible virtual path. */
const MAX_NAME = 4096;
/** Names are read in one piece when they span at most this much, else one read per name. */
const NAME_SPAN_READ = 8 << 20;

/**
 * `bun.options.Loader` names. The enum was renumbered when `jsonc` was inserted at 7: every
 * loader from `toml` on moved up by one. Which numbering a binary uses is decided in
 * chooseLoaderNumbering below.
 */
const LOADERS_OLD = ["jsx", "js", "ts", "tsx", "css", "file", "json", "toml", "wasm", "napi", "base64", "dataurl", "text", "bunsh", "sqlite", "sqlite_embedded", "html"];
const LOADERS_NEW = ["jsx", "js", "ts", "tsx", "css", "file", "json", "jsonc", "toml", "wasm", "napi", "base64", "dataurl", "text", "bunsh", "sqlite", "sqlite_embedded", "html", "yaml", "json5", "md", "url"];
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

interface RawRecord {
  name: Sp;
  contents: Sp;
  sourcemap: Sp;
  bytecode: Sp;
  moduleInfo: Sp;
  originPath: Sp;
  encoding: number | null;
  loader: number;
  format: number | null;
  side: number | null;
}

function sp(b: Buffer, o: number): Sp {
  return { off: b.readUInt32LE(o), len: b.readUInt32LE(o + 4) };
}
const NO_SP: Sp = { off: 0, len: 0 };

/** Byte positions of each field per record size; -1 = the field does not exist in that era. */
const LAYOUT: Record<RecordSize, { bytecode: number; moduleInfo: number; originPath: number; encoding: number; loader: number; format: number; side: number }> = {
  32: { bytecode: -1, moduleInfo: -1, originPath: -1, encoding: -1, loader: 24, format: -1, side: -1 }, // 1.0.0–1.1.21
  28: { bytecode: -1, moduleInfo: -1, originPath: -1, encoding: 24, loader: 25, format: -1, side: -1 }, // 1.1.22–1.1.29
  36: { bytecode: 24, moduleInfo: -1, originPath: -1, encoding: 32, loader: 33, format: 34, side: 35 }, // 1.1.30–1.3.8
  52: { bytecode: 24, moduleInfo: 32, originPath: 40, encoding: 48, loader: 49, format: 50, side: 51 }, // 1.3.9+
};

function decodeRecord(b: Buffer, o: number, size: RecordSize): RawRecord {
  const l = LAYOUT[size];
  // One object shape for every era keeps this loop cheap over thousands of records.
  return {
    name: sp(b, o),
    contents: sp(b, o + 8),
    sourcemap: sp(b, o + 16),
    bytecode: l.bytecode < 0 ? NO_SP : sp(b, o + l.bytecode),
    moduleInfo: l.moduleInfo < 0 ? NO_SP : sp(b, o + l.moduleInfo),
    originPath: l.originPath < 0 ? NO_SP : sp(b, o + l.originPath),
    encoding: l.encoding < 0 ? null : b[o + l.encoding]!,
    loader: b[o + l.loader]!,
    format: l.format < 0 ? null : b[o + l.format]!,
    side: l.side < 0 ? null : b[o + l.side]!,
  };
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

export function chooseLoaderNumbering(records: Array<{ name: string; loader: number }>, recordSize: number, version: [number, number, number] | null): LoaderNumbering {
  if (recordSize === 28 || recordSize === 32) return "old";
  if (recordSize === 52) return "new";
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

function isPrintableName(b: Buffer): boolean {
  for (const c of b) if (c < 0x20 || c === 0x7f) return false;
  return true;
}

export interface ParseOptions {
  /** Absolute offset of the payload start, when the container states it (sections do). */
  start?: number;
  /** Parsed Bun version, for the loader-numbering decision. */
  version?: [number, number, number] | null;
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
  const inPayload = (s: Sp) => s.off + s.len <= byteCount;
  const candidates: Array<{ size: RecordSize; records: RawRecord[]; names: string[]; rooted: boolean }> = [];
  for (const size of RECORD_SIZES) {
    if (table.len % size !== 0) continue;
    const count = table.len / size;
    const why = (m: string) => problems.push(`${osize}-byte Offsets, ${size}-byte records: ${m}`);
    if (entryId >= count) {
      why(`entry id ${entryId} ≥ module count ${count}`);
      continue;
    }
    const records: RawRecord[] = [];
    let bad: string | null = null;
    for (let i = 0; i < count && !bad; i++) {
      const r = decodeRecord(tb, i * size, size);
      if (r.name.len === 0 || r.name.len > MAX_NAME || !inPayload(r.name)) bad = `record ${i} name (${r.name.off}, ${r.name.len}) out of range`;
      else if (!inPayload(r.contents)) bad = `record ${i} contents (${r.contents.off}, ${r.contents.len}) outside the payload`;
      else if (!inPayload(r.sourcemap) || !inPayload(r.bytecode) || !inPayload(r.moduleInfo) || !inPayload(r.originPath)) bad = `record ${i} has a pointer outside the payload`;
      else if (r.loader > 21 || (r.encoding ?? 0) > 2 || (r.format ?? 0) > 2 || (r.side ?? 0) > 1) bad = `record ${i} has out-of-range enum values`;
      else if (overlaps(r.contents, table)) bad = `record ${i} contents overlap the module table`;
      records.push(r);
    }
    if (bad) {
      why(bad);
      continue;
    }
    const names = readNames(src, start, records);
    const unprintable = names.findIndex((n) => n === null);
    if (unprintable >= 0) {
      why(`record ${unprintable} name is not a printable path`);
      continue;
    }
    const strNames = names as string[];
    candidates.push({ size, records, names: strNames, rooted: strNames.every((n) => BUN_VIRTUAL_ROOTS.some((r) => n.startsWith(r))) });
  }
  // Several layouts can divide the table length; a layout whose names all carry a virtual root wins.
  const pick = candidates.find((c) => c.rooted) ?? candidates[0];
  if (!pick) return null;
  const { size, records, names } = pick;
  checkContentsDisjoint(src, records, opts.where);
  const numbering = chooseLoaderNumbering(
    records.map((r, i) => ({ name: names[i]!, loader: r.loader })),
    size,
    opts.version ?? null,
  );
  const table2 = numbering === "new" ? LOADERS_NEW : LOADERS_OLD;
  const modules = records.map((r, i): ModuleEntry => {
    const path = names[i]!;
    const loader = table2[r.loader] ?? `loader#${r.loader}`;
    const kind = kindOf(loader, path);
    const encoding = encodingOf(r.encoding, kind);
    if (encoding === "utf16le" && r.contents.len % 2 !== 0) {
      throw new MalformedInput(src.path, `${opts.where}: module ${path} is UTF-16LE but ${r.contents.len} bytes long`);
    }
    const extra: Record<string, unknown> = { loaderId: r.loader, sourcemap: r.sourcemap.len > 0 };
    if (r.sourcemap.len > 0) extra.sourcemapSize = r.sourcemap.len;
    if (r.bytecode.len > 0) extra.bytecodeSize = r.bytecode.len;
    if (r.side !== null) extra.side = r.side === 1 ? "client" : "server";
    if (r.moduleInfo.len > 0) extra.moduleInfo = true;
    return {
      path,
      kind,
      loader,
      moduleFormat: formatOf(r.format),
      encoding,
      size: r.contents.len,
      bytecode: r.bytecode.len > 0,
      start: start + r.contents.off,
      end: start + r.contents.off + r.contents.len,
      extra,
    };
  });
  return { modules, entry: modules[entryId]!.path, recordSize: size, loaderNumbering: numbering };
}

function overlaps(a: Sp, b: Sp): boolean {
  return a.len > 0 && b.len > 0 && a.off < b.off + b.len && b.off < a.off + a.len;
}

/**
 * Contents of different modules never share bytes (bytecode does, by design, in 1.4's linked
 * bytecode blob, so only contents are checked). Identical ranges are tolerated as deduplication.
 */
function checkContentsDisjoint(src: ByteSource, records: RawRecord[], where: string): void {
  const spans = records
    .map((r, i) => ({ i, off: r.contents.off, end: r.contents.off + r.contents.len }))
    .filter((s) => s.end > s.off)
    .sort((a, b) => a.off - b.off || a.end - b.end);
  for (let k = 1; k < spans.length; k++) {
    const p = spans[k - 1]!;
    const c = spans[k]!;
    if (c.off < p.end && !(c.off === p.off && c.end === p.end)) {
      throw new MalformedInput(src.path, `${where}: contents of modules ${p.i} and ${c.i} overlap ([${p.off}, ${p.end}) and [${c.off}, ${c.end}))`);
    }
  }
}

/** Names as UTF-8 strings, null for a name with control bytes. Reads the names' span at once when it is compact. */
function readNames(src: ByteSource, start: number, records: RawRecord[]): Array<string | null> {
  let lo = Infinity;
  let hi = 0;
  for (const r of records) {
    lo = Math.min(lo, r.name.off);
    hi = Math.max(hi, r.name.off + r.name.len);
  }
  const span = hi - lo <= NAME_SPAN_READ ? src.read(start + lo, hi - lo, "Bun module names") : null;
  return records.map((r) => {
    const b = span ? span.subarray(r.name.off - lo, r.name.off - lo + r.name.len) : src.read(start + r.name.off, r.name.len, "Bun module name");
    return isPrintableName(b) ? b.toString("utf8") : null;
  });
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
