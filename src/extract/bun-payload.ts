import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";
import type { ModuleEntry } from "./types.js";
import { chooseLoaderNumbering, encodingOf, formatOf, kindOf, LOADERS_NEW, LOADERS_OLD, type LoaderNumbering } from "./bun-loaders.js";
import { NO_SP, RECORD_SIZES, sp, Table, type RecordSize, type Sp } from "./bun-records.js";

export { parseBunVersion } from "./bun-loaders.js";

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
