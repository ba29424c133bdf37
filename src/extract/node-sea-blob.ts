/**
 * Decoder for the Node.js single-executable-application (SEA) preparation blob: the bytes that
 * `node --experimental-sea-config` (or `--build-sea`) writes and postject injects as
 * `NODE_SEA_BLOB`. Layout (all little-endian; StringView = u64 length + bytes):
 *
 *   u32 magic 0x0143DA20
 *   u32 flags                    absent in 20.0 (there the rest of the blob is the raw script)
 *   u8  exec_argv_extension      22.20+
 *   u8  main_format              26+ (0 commonjs, 1 module)
 *   StringView code_path
 *   StringView main code, or a V8 startup snapshot when flags & kUseSnapshot
 *   [StringView code_cache]                               flags & kUseCodeCache
 *   [u64 n; n × (StringView key, StringView content)]     flags & kIncludeAssets
 *   [u64 n; n × StringView arg]                            flags & kIncludeExecArgv
 *
 * No version number is stored, so the header width is found by structure: each candidate
 * (10, 9, 8 bytes, then the raw 20.0 form) is decoded and the one that consumes the blob
 * exactly wins. Only lengths and the short strings we report (paths, asset keys, argv) are read;
 * contents stay in the source as absolute ranges, and every u64 length is checked against the
 * bytes left before anything is read or allocated.
 */
import { MalformedInput } from "../errors.js";
import { BufferByteSource, type ByteSource } from "./byte-source.js";

export const SEA_MAGIC = 0x0143da20;

export const SeaFlag = {
  disableExperimentalSeaWarning: 1,
  useSnapshot: 2,
  useCodeCache: 4,
  includeAssets: 8,
  includeExecArgv: 16,
} as const;
const KNOWN_FLAGS = 31;

/**
 * Header width in bytes; 4 = the 20.0 form (magic followed by the raw script); 0 = no blob at all:
 * the 18.16–19.x `NODE_JS_CODE` resource, which is the script itself (see `legacyCodeBlob`).
 */
export type SeaHeaderSize = 0 | 4 | 8 | 9 | 10;

/** Node versions whose `--experimental-sea-config` writes each header width (observed, see docs/container-formats.md §2.2). */
export const SEA_HEADER_VERSIONS: Record<SeaHeaderSize, string> = {
  0: "Node 18.16–19.x (NODE_JS_CODE resource: the script itself, no blob)",
  4: "Node 20.0–20.1 (raw script after the magic)",
  8: "Node 20.2–22.19 (8-byte header)",
  9: "Node 22.20–25.x (9-byte header: + exec_argv_extension)",
  10: "Node 26+ (10-byte header: + main_format)",
};

/** An absolute byte range [start, end) of the source the blob was read from. */
export interface SeaRange {
  start: number;
  end: number;
}

export interface SeaAsset extends SeaRange {
  key: string;
}

export interface SeaBlob {
  /** Where the blob itself lies in the source. */
  start: number;
  end: number;
  headerSize: SeaHeaderSize;
  /** Human-readable Node version range that writes this header width. */
  versionGuess: string;
  /** Raw flags word (0 for the 20.0 form). Bits beyond the known five are kept as-is. */
  flags: number;
  disableExperimentalSeaWarning: boolean;
  /** The main range holds a V8 startup snapshot, not JavaScript. */
  useSnapshot: boolean;
  /** 22.20+: how NODE_OPTIONS-style extension of exec argv is allowed. null before 22.20. */
  execArgvExtension: "none" | "env" | "cli" | null;
  /** 26+: the declared format of the main script; null when the blob does not say (commonjs then). */
  mainFormat: "cjs" | "esm" | null;
  /** The `main` path from the SEA config (null in the 20.0 form, which does not store it). */
  codePath: string | null;
  /** The main script (or snapshot) bytes. */
  main: SeaRange;
  /** V8 code cache for the main script, when built with useCodeCache. */
  codeCache: SeaRange | null;
  assets: SeaAsset[];
  execArgv: string[];
  /** Zero bytes after the decoded structure (a padded carrier); normally 0. */
  trailingPadding: number;
}

/** Longest text field (code path, asset key, argv entry) decoded as a string. */
const MAX_NAME = 64 * 1024;
/** Zero padding tolerated after the structure when no candidate consumes the blob exactly. */
const MAX_PADDING = 4096;

class Failure extends Error {
  constructor(
    message: string,
    readonly progress: number,
  ) {
    super(message);
  }
}

/** Sequential reader over [base, base+size) of a source; every length is checked before reading. */
class Cursor {
  pos = 0;
  constructor(
    private readonly src: ByteSource,
    private readonly base: number,
    readonly size: number,
  ) {}

  get left(): number {
    return this.size - this.pos;
  }

  private need(n: number, what: string): void {
    if (n > this.left) {
      throw new Failure(`${what} needs ${n} bytes at blob offset ${this.pos} but only ${this.left} remain`, this.pos);
    }
  }

  u8(what: string): number {
    this.need(1, what);
    const v = this.src.read(this.base + this.pos, 1, what)[0]!;
    this.pos += 1;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    const v = this.src.read(this.base + this.pos, 4, what).readUInt32LE(0);
    this.pos += 4;
    return v;
  }

  /** A u64 count or length that must fit in what is left of the blob (`unit` bytes per item at least). */
  u64(what: string, unit = 1): number {
    this.need(8, `${what} (u64)`);
    const at = this.pos;
    const v = this.src.read(this.base + at, 8, what).readBigUInt64LE(0);
    this.pos += 8;
    if (v * BigInt(unit) > BigInt(this.left)) {
      throw new Failure(
        unit === 1
          ? `${what} length ${v} at blob offset ${at} runs past the end of the ${this.size}-byte blob (${this.left} bytes left)`
          : `${what} count ${v} at blob offset ${at} cannot fit in the ${this.left} bytes left of the ${this.size}-byte blob`,
        at,
      );
    }
    return Number(v);
  }

  /** A StringView whose bytes are only located (absolute range), not read. */
  view(what: string): SeaRange {
    const len = this.u64(what);
    const start = this.base + this.pos;
    this.pos += len;
    return { start, end: start + len };
  }

  /** A StringView decoded as UTF-8 text (short fields only). */
  text(what: string): string {
    const at = this.pos;
    const r = this.view(what);
    if (r.end - r.start > MAX_NAME) throw new Failure(`${what} at blob offset ${at} is ${r.end - r.start} bytes, too long for a name`, at);
    return this.src.read(r.start, r.end - r.start, what).toString("utf8");
  }
}

function decodeStructured(src: ByteSource, base: number, size: number, headerSize: 8 | 9 | 10): SeaBlob {
  const c = new Cursor(src, base, size);
  if (c.u32("magic") !== SEA_MAGIC) throw new Failure("no SEA magic 20 da 43 01", 0);
  const flags = c.u32("flags");
  let execArgvExtension: SeaBlob["execArgvExtension"] = null;
  let mainFormat: SeaBlob["mainFormat"] = null;
  if (headerSize >= 9) {
    const at = c.pos;
    const ext = c.u8("exec_argv_extension");
    if (ext > 2) throw new Failure(`exec_argv_extension ${ext} at blob offset ${at} is not 0, 1 or 2`, at);
    execArgvExtension = (["none", "env", "cli"] as const)[ext]!;
  }
  if (headerSize >= 10) {
    const at = c.pos;
    const fmt = c.u8("main_format");
    if (fmt > 1) throw new Failure(`main_format ${fmt} at blob offset ${at} is not 0 or 1`, at);
    mainFormat = fmt === 1 ? "esm" : "cjs";
  }
  const codePath = c.text("code_path");
  const main = c.view("main code");
  const codeCache = flags & SeaFlag.useCodeCache ? c.view("code cache") : null;
  const assets: SeaAsset[] = [];
  if (flags & SeaFlag.includeAssets) {
    const n = c.u64("asset", 16);
    for (let i = 0; i < n; i++) {
      const key = c.text(`asset #${i} key`);
      const r = c.view(`asset ${JSON.stringify(key)}`);
      assets.push({ key, ...r });
    }
  }
  const execArgv: string[] = [];
  if (flags & SeaFlag.includeExecArgv) {
    const n = c.u64("exec argv", 8);
    for (let i = 0; i < n; i++) execArgv.push(c.text(`exec argv #${i}`));
  }
  let trailingPadding = 0;
  if (c.left > 0) {
    const rest = c.left <= MAX_PADDING ? src.read(base + c.pos, c.left, "blob padding") : null;
    if (!rest || rest.some((b) => b !== 0)) {
      const unknown = flags & ~KNOWN_FLAGS ? ` (flags 0x${flags.toString(16)} has bits this reader does not know)` : "";
      throw new Failure(`decoded structure ends at blob offset ${c.pos}, ${c.left} bytes before the blob end${unknown}`, c.pos);
    }
    trailingPadding = c.left;
  }
  return {
    start: base,
    end: base + size,
    headerSize,
    versionGuess: SEA_HEADER_VERSIONS[headerSize],
    flags,
    disableExperimentalSeaWarning: (flags & SeaFlag.disableExperimentalSeaWarning) !== 0,
    useSnapshot: (flags & SeaFlag.useSnapshot) !== 0,
    execArgvExtension,
    mainFormat,
    codePath,
    main,
    codeCache,
    assets,
    execArgv,
    trailingPadding,
  };
}

/**
 * The 20.0 form: magic + the script itself. Accepted only when no structured header fits and the
 * bytes after the magic look like text (a structured blob has NUL bytes in its first u64 lengths;
 * JavaScript source does not).
 */
function decodeRaw(src: ByteSource, base: number, size: number): SeaBlob {
  const probe = src.read(base + 4, Math.min(size - 4, 4096), "blob start");
  if (probe.length === 0) throw new Failure("no script after the magic", 4);
  const nul = probe.indexOf(0);
  if (nul >= 0) throw new Failure(`NUL byte at blob offset ${4 + nul}: not a raw script`, 4);
  return scriptOnlyBlob(base, size, 4);
}

/**
 * The pre-blob generation (Node 18.16–18.x, 19.7–19.x): postject injected the script itself as
 * `NODE_JS_CODE` (fuse `NODE_JS_FUSE_…`), with no magic, flags or path. Described as a SeaBlob
 * whose main range is the whole resource.
 */
export function legacyCodeBlob(start: number, size: number): SeaBlob {
  return scriptOnlyBlob(start, size, 0);
}

/** A blob that is a header of `headerSize` bytes (magic or nothing) and then the script: no flags, cache or assets. */
function scriptOnlyBlob(start: number, size: number, headerSize: 0 | 4): SeaBlob {
  return {
    start,
    end: start + size,
    headerSize,
    versionGuess: SEA_HEADER_VERSIONS[headerSize],
    flags: 0,
    disableExperimentalSeaWarning: false,
    useSnapshot: false,
    execArgvExtension: null,
    mainFormat: null,
    codePath: null,
    main: { start: start + headerSize, end: start + size },
    codeCache: null,
    assets: [],
    execArgv: [],
    trailingPadding: 0,
  };
}

/** Whether `head` (the first bytes of a candidate blob) starts with the SEA magic. */
export function hasSeaMagic(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === SEA_MAGIC;
}

/**
 * Decode a SEA blob. `input` is either the blob itself (ranges are then offsets in that buffer)
 * or a range [start, start+size) of a ByteSource (ranges are absolute offsets in the source).
 * Throws MalformedInput naming the field that does not fit when no header width decodes.
 */
export function decodeSeaBlob(input: Buffer | { src: ByteSource; start: number; size: number }, file = "<blob>"): SeaBlob {
  const { src, start, size } = Buffer.isBuffer(input) ? { src: new BufferByteSource(file, input), start: 0, size: input.length } : input;
  const path = src.path ?? file;
  if (size < 4) throw new MalformedInput(path, `Node SEA blob at ${start} is ${size} bytes, too short for the magic`);
  if (!hasSeaMagic(src.read(start, 4, "SEA blob magic"))) {
    throw new MalformedInput(path, `Node SEA blob at ${start} does not start with the magic 20 da 43 01`);
  }
  const failures: Array<{ header: string; f: Failure }> = [];
  for (const h of [10, 9, 8] as const) {
    try {
      return decodeStructured(src, start, size, h);
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      failures.push({ header: `${h}-byte header`, f: e });
    }
  }
  try {
    return decodeRaw(src, start, size);
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    failures.push({ header: "raw 20.0 form", f: e });
  }
  // Report the reading that got furthest: it is the most likely intended layout.
  const best = failures.reduce((a, b) => (b.f.progress > a.f.progress ? b : a));
  throw new MalformedInput(
    path,
    `Node SEA blob at ${start} (${size} bytes) does not decode with any known header: ${best.header}: ${best.f.message}` +
      ` [also tried: ${failures
        .filter((x) => x !== best)
        .map((x) => `${x.header}: ${x.f.message}`)
        .join("; ")}]`,
  );
}
