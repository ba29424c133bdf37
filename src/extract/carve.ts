import { isUtf8 } from "node:buffer";
import { UnrecognizedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";
import { rangeContainer } from "./container.js";
import { hasImportExport, looksLikeProgram, parseProgram } from "./plain-script.js";
import type { Container, Encoding, ModuleEntry, ModuleFormat } from "./types.js";

/** Shorter printable runs are strings and symbol names, not programs worth reporting. */
export const MIN_RUN = 256;
/** The file is scanned in chunks of this size; memory stays at one chunk plus the run being parsed. */
const CHUNK = 4 * 1024 * 1024;
/** Longer runs are not parsed (a 64 MB parse already takes ~20 s); reported in a note instead. */
const MAX_RUN = 64 * 1024 * 1024;
/** Bounded retries when a run has non-JS text glued to its head or tail. */
const MAX_ATTEMPTS = 6;
/** Above this, one retry at most: each attempt re-parses the window. */
const BIG_RUN = 4 * 1024 * 1024;

/**
 * Bytes that may occur in JavaScript text: tab, newlines, vertical tab, form feed, escape, printable
 * ASCII, DEL (raw in string literals of real bundles: cli.js 2.1.112 has six), and every byte ≥ 0x80
 * (UTF-8 sequences, or Latin-1 letters in Bun's latin1 modules).
 */
const PRINTABLE = (() => {
  const t = new Uint8Array(256);
  for (const b of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]) t[b] = 1;
  for (let b = 0x20; b <= 0x7f; b++) t[b] = 1;
  for (let b = 0x80; b <= 0xff; b++) t[b] = 1;
  return t;
})();

/** Tokens that begin most statements of a bundle; where code glued to junk probably starts. */
const STATEMENT_START =
  /\/\/|\/\*|"use strict"|\b(?:function|var|let|const|import|export|class|async|if|for|while|try|return|module|exports|require)\b|[(!]/g;

const CJS_HINT = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.[\w$]+\s*=/;

interface Packer {
  name: string;
  advice: string;
}

/** Known packers whose layout we do not read; found by their markers (container-formats.md §3, §4). */
function detectPackers(src: ByteSource, seen: Set<string>): Packer[] {
  const out: Packer[] = [];
  const head = src.read(0, Math.min(src.size, 4096));
  const tail = src.read(Math.max(0, src.size - 16000), Math.min(src.size, 16000));
  if (head.includes("UPX!") || tail.subarray(-4096).includes("UPX!")) {
    out.push({ name: "UPX", advice: "it is UPX-packed: unpack it first (upx -d) and open the result" });
  }
  if (tail.includes("<nexe~~sentinel>")) out.push({ name: "nexe", advice: "it was built with nexe, which is not supported" });
  if (seen.has("pkg"))
    out.push({ name: "pkg", advice: "it was built with pkg (vercel/yao-pkg), which is not supported (its JS is usually V8 bytecode)" });
  if (seen.has("deno")) out.push({ name: "deno", advice: "it was built with deno compile, which is not supported" });
  return out;
}

/** Markers searched in every chunk (with an overlap so one split across chunks is still found). */
const CHUNK_MARKERS: [string, Buffer][] = [
  ["pkg", Buffer.from("PAYLOAD_POSITION")],
  ["deno", Buffer.from("d3n0l4nd")],
];
const MARKER_OVERLAP = 16;

/**
 * Strings-style carve for unknown packers: every run of at least MIN_RUN printable bytes that
 * parses as JavaScript (and does something — see looksLikeProgram) becomes a module
 * `carved:<start>-<end>`. Throws UnrecognizedInput when none is found.
 */
export function carveScripts(src: ByteSource, input: string): Container {
  const modules: ModuleEntry[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  let runStart = -1;
  let prevTail = Buffer.alloc(0);

  const closeRun = (end: number) => {
    if (runStart >= 0 && end - runStart >= MIN_RUN) {
      if (end - runStart > MAX_RUN)
        notes.push(`printable run [${runStart}, ${end}) of ${end - runStart} bytes is too long to parse; skipped`);
      else {
        const m = carveRun(src, runStart, end);
        if (m) modules.push(m);
      }
    }
    runStart = -1;
  };

  for (let pos = 0; pos < src.size; pos += CHUNK) {
    const len = Math.min(CHUNK, src.size - pos);
    const chunk = src.read(pos, len);
    const withPrev = prevTail.length ? Buffer.concat([prevTail, chunk.subarray(0, MARKER_OVERLAP)]) : null;
    for (const [name, marker] of CHUNK_MARKERS) {
      if (!seen.has(name) && (chunk.includes(marker) || withPrev?.includes(marker))) seen.add(name);
    }
    prevTail = Buffer.from(chunk.subarray(Math.max(0, len - MARKER_OVERLAP)));
    for (let i = 0; i < len; i++) {
      if (PRINTABLE[chunk[i]!]) {
        if (runStart < 0) runStart = pos + i;
      } else if (runStart >= 0) closeRun(pos + i);
    }
  }
  closeRun(src.size);

  const packers = detectPackers(src, seen);
  if (modules.length === 0) {
    const base = "no JavaScript found (not a known container, and no text that parses as JavaScript)";
    throw new UnrecognizedInput(input, packers.length ? `${base}; ${packers.map((p) => p.advice).join("; ")}` : base);
  }
  for (const p of packers) notes.push(`looks packed: ${p.advice}`);
  notes.unshift(
    `carved ${modules.length} printable run(s) that parse as JavaScript; boundaries are those of the text, not of the packer's records`,
  );
  return rangeContainer(src, { input, format: "carved", runtime: null, entry: null, modules, notes });
}

/**
 * One printable run [start, end): trim stray high bytes at its edges, then parse, moving the
 * window past the text the parser stopped on (junk at the head: skip to the next line; junk at the
 * tail: cut at the previous line or statement end) a bounded number of times.
 */
function carveRun(src: ByteSource, start: number, end: number): ModuleEntry | null {
  const bytes = src.read(start, end - start, "printable run");
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi && bytes[lo]! >= 0x80) lo++; // code starts with ASCII; a high byte before it is a length or tag
  while (hi > lo && bytes[hi - 1]! >= 0x80) hi--;
  if (hi - lo < MIN_RUN) return null;

  const body = bytes.subarray(lo, hi);
  const encoding: Encoding = isUtf8(body) ? "utf8" : "latin1";
  const text = body.toString(encoding);
  let a = 0;
  let b = text.length;
  const attempts = body.length > BIG_RUN ? 2 : MAX_ATTEMPTS;
  for (let i = 0; i < attempts && b - a >= MIN_RUN / 4; i++) {
    const window = a === 0 && b === text.length ? text : text.slice(a, b);
    const parsed = parseProgram(window);
    if (parsed.ok) {
      if (!looksLikeProgram(parsed.program)) return null;
      const s = start + lo + byteLength(text, 0, a, encoding);
      const e = s + byteLength(text, a, b, encoding);
      if (e - s < MIN_RUN) return null;
      const moduleFormat: ModuleFormat =
        parsed.sourceType === "module" && hasImportExport(parsed.program) ? "esm" : CJS_HINT.test(window) ? "cjs" : "none";
      return {
        path: `carved:${s}-${e}`,
        kind: "js",
        loader: "carved",
        moduleFormat,
        encoding,
        size: e - s,
        bytecode: false,
        start: s,
        end: e,
      };
    }
    const p = a + Math.max(0, Math.min(parsed.pos, b - a));
    if (p - a < (b - a) / 2) {
      // Junk at the head: restart at the next thing that starts a statement close after the
      // failure (junk glued to code on one line), else after the line the parser stopped on.
      STATEMENT_START.lastIndex = p + 1;
      const m = STATEMENT_START.exec(text);
      const nl = text.indexOf("\n", p);
      const next = m && m.index < b && m.index - p <= 64 && (nl < 0 || m.index < nl) ? m.index : nl < 0 ? -1 : nl + 1;
      if (next <= a || next >= b) return null;
      a = next;
    } else {
      // Junk at the tail: end at the last line break (else statement end) before the failure.
      let cut = text.lastIndexOf("\n", p - 1);
      if (cut <= a) cut = Math.max(text.lastIndexOf(";", p - 1), text.lastIndexOf("}", p - 1));
      if (cut <= a) return null;
      b = cut + 1;
    }
  }
  return null;
}

function byteLength(text: string, from: number, to: number, encoding: Encoding): number {
  if (encoding === "latin1") return to - from;
  return Buffer.byteLength(from === 0 && to === text.length ? text : text.slice(from, to), "utf8");
}
