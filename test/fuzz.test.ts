/**
 * Mutation fuzzing of the extract stage: every input a user can give must either open (and then
 * list and read every module) or fail with a SearchliftError carrying a one-line message — never
 * another exception, never a hang, never a temporary file left behind.
 *
 * Inputs are small on purpose (a few MB at most, so thousands of cases run in about a minute):
 * real Bun module graphs and a real Node SEA blob, cut out of fixtures built by the other test
 * helpers, re-hosted in minimal ELF shells and in Bun's legacy appended layout; plus a plain
 * script, an npm .tgz and a carvable unknown binary. Mutations aim at the bytes readers trust:
 * headers, section/program/note tables, the Bun Offsets block and module table, the SEA blob header.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBun } from "../src/extract/bun.js";
import { checkRange, FileByteSource, type ByteSource } from "../src/extract/byte-source.js";
import { readElf } from "../src/extract/elf.js";
import { readMacho } from "../src/extract/macho.js";
import { readNodeSea } from "../src/extract/node-sea.js";
import { openContainer } from "../src/extract/open-container.js";
import { readPe } from "../src/extract/pe.js";
import type { Container } from "../src/extract/types.js";
import { SearchliftError } from "../src/errors.js";
import { buildBun } from "./helpers/bun-fixtures.js";
import { SEA_APP, SEA_FUSE, seaFixture } from "./helpers/sea-fixtures.js";
import { Rng } from "./helpers/random.js";

const CASES_PER_CORPUS = Number(process.env.SEARCHLIFT_FUZZ_CASES ?? 2000);
/** A case that takes longer than this is reported as a hang candidate. */
const CASE_BUDGET_MS = 2000;
const SEED = Number(process.env.SEARCHLIFT_FUZZ_SEED ?? 0x5ea4c1);

const work = mkdtempSync(join(tmpdir(), "searchlift-fuzz-"));
const scratch = mkdtempSync(join(work, "tmp-"));
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  // The npm reader unpacks into os.tmpdir(); a private one lets us prove it always cleans up.
  process.env.TMPDIR = scratch;
});
afterAll(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(work, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

// ---------------------------------------------------------------------------------------------
// Corpus construction

interface Region {
  start: number;
  end: number;
}
interface Corpus {
  name: string;
  bytes: Buffer;
  /** Bytes the readers trust: mutations are aimed here most of the time. */
  hot: Region[];
  /** File name (extension matters to the plain-script reader). */
  file: string;
  expectFormat: string;
}

const U32_SPECIAL = [0xffffffff, 0xfffffff0, 0x80000000, 0x7fffffff, 0x10000, 0, 1];
const U64_SPECIAL = [0xffffffffffffffffn, 0x100000000n, 0xffffffffn, 0x20000000000000n, 0x8000000000000000n, 0n];

/** ELF64 LE with the given PT_NOTE notes and extra sections; the smallest file our ELF readers accept. */
function elfShell(opts: {
  notes?: Array<{ name: string; type: number; desc: Buffer }>;
  sections?: Array<{ name: string; type: number; data: Buffer }>;
  extra?: Buffer;
}): { bytes: Buffer; hot: Region[] } {
  const notes = opts.notes ?? [];
  const sections = opts.sections ?? [];
  const phnum = notes.length ? 1 : 0;
  const parts: Buffer[] = [];
  let off = 64 + phnum * 56;
  const place = (b: Buffer, align = 8): number => {
    const pad = (align - (off % align)) % align;
    if (pad) parts.push(Buffer.alloc(pad));
    off += pad;
    parts.push(b);
    off += b.length;
    return off - b.length;
  };
  // Notes: namesz, descsz, type, name (4-aligned), desc (4-aligned).
  let noteAt = 0;
  let noteSize = 0;
  if (notes.length) {
    const bufs = notes.map((n) => {
      const name = Buffer.from(n.name + "\0");
      const h = Buffer.alloc(12);
      h.writeUInt32LE(name.length, 0);
      h.writeUInt32LE(n.desc.length, 4);
      h.writeUInt32LE(n.type, 8);
      const pad4 = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
      return Buffer.concat([h, pad4(name), pad4(n.desc)]);
    });
    const all = Buffer.concat(bufs);
    noteAt = place(all, 4);
    noteSize = all.length;
  }
  if (opts.extra) place(opts.extra);
  const shstr = Buffer.from("\0.shstrtab\0" + sections.map((s) => s.name + "\0").join(""));
  const secAt = sections.map((s) => place(s.data));
  const shstrAt = place(shstr, 1);
  const shoff = place(Buffer.alloc((2 + sections.length) * 64));
  const bytes = Buffer.concat(parts.length ? [Buffer.alloc(64 + phnum * 56), ...parts] : [Buffer.alloc(64)]);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(bytes, 0);
  bytes.writeUInt16LE(2, 16); // ET_EXEC
  bytes.writeUInt16LE(0x3e, 18); // x86-64
  bytes.writeUInt32LE(1, 20);
  bytes.writeBigUInt64LE(BigInt(phnum ? 64 : 0), 32);
  bytes.writeBigUInt64LE(BigInt(shoff), 40);
  bytes.writeUInt16LE(64, 52);
  bytes.writeUInt16LE(56, 54);
  bytes.writeUInt16LE(phnum, 56);
  bytes.writeUInt16LE(64, 58);
  bytes.writeUInt16LE(2 + sections.length, 60);
  bytes.writeUInt16LE(1, 62);
  if (phnum) {
    bytes.writeUInt32LE(4, 64); // PT_NOTE
    bytes.writeUInt32LE(4, 68);
    for (const [i, v] of [noteAt, noteAt, noteAt, noteSize, noteSize, 4].entries()) bytes.writeBigUInt64LE(BigInt(v), 72 + i * 8);
  }
  const sh = (i: number, name: number, type: number, at: number, size: number) => {
    const o = shoff + i * 64;
    bytes.writeUInt32LE(name, o);
    bytes.writeUInt32LE(type, o + 4);
    bytes.writeBigUInt64LE(BigInt(at), o + 24);
    bytes.writeBigUInt64LE(BigInt(size), o + 32);
    bytes.writeBigUInt64LE(1n, o + 48);
  };
  sh(1, 1, 3, shstrAt, shstr.length);
  let nameOff = "\0.shstrtab\0".length;
  sections.forEach((s, i) => {
    sh(2 + i, nameOff, s.type, secAt[i]!, s.data.length);
    nameOff += s.name.length + 1;
  });
  const hot: Region[] = [
    { start: 0, end: 64 + phnum * 56 },
    { start: shstrAt, end: bytes.length },
  ];
  if (notes.length) hot.push({ start: noteAt, end: noteAt + 64 });
  return { bytes, hot };
}

/** Regions of a Bun payload (relative to its start) that readers trust: Offsets + trailer and the module table. */
function payloadHot(payload: Buffer): Region[] {
  const end = payload.length;
  const hot: Region[] = [{ start: Math.max(0, end - 16 - 32), end }];
  for (const offsetsSize of [32, 24]) {
    const at = end - 16 - offsetsSize;
    if (at < 0) continue;
    const tableOff = payload.readUInt32LE(at + 8);
    const tableLen = payload.readUInt32LE(at + 12);
    if (tableOff + tableLen <= end && tableLen > 0) {
      hot.push({ start: tableOff, end: Math.min(tableOff + tableLen + 64, end) });
      break;
    }
  }
  return hot;
}

/** The [payload] of a Bun ELF build: the `.bun` section's `[u64 len][payload]` block. */
function elfPayload(path: string): Buffer {
  const src = new FileByteSource(path);
  try {
    const elf = readElf(src);
    const bun = elf.sections.find((s) => s.name === ".bun");
    if (!bun || bun.size <= 8) throw new Error(`${path}: no .bun block`);
    const len = Number(src.read(bun.offset, 8).readBigUInt64LE(0));
    return Buffer.from(src.read(bun.offset + 8, len));
  } finally {
    src.close();
  }
}

/** The tail of a legacy Bun build holding its payload (what precedes the payload does not matter to the layout). */
function legacyTailBytes(path: string): Buffer {
  const src = new FileByteSource(path);
  try {
    let need = 0;
    for (const offsetsSize of [32, 24]) {
      const bc = Number(src.read(src.size - 8 - 16 - offsetsSize, 8).readBigUInt64LE(0));
      if (bc < src.size) need = Math.max(need, bc + offsetsSize + 16 + 8);
    }
    const take = Math.min(src.size, need + 4096);
    const tail = Buffer.from(src.read(src.size - take, take));
    tail.writeBigUInt64LE(BigInt(take), take - 8); // the trailing total is the file size
    tail[0] = 0; // never an accidental executable magic at the new start
    return tail;
  } finally {
    src.close();
  }
}

function legacyOf(payload: Buffer): { bytes: Buffer; hot: Region[] } {
  const prefix = Buffer.alloc(4096, 0x90);
  const total = Buffer.alloc(8);
  const bytes = Buffer.concat([prefix, payload, total]);
  bytes.writeBigUInt64LE(BigInt(bytes.length), bytes.length - 8);
  return {
    bytes,
    hot: [
      ...payloadHot(payload).map((r) => ({ start: r.start + 4096, end: r.end + 4096 })),
      { start: bytes.length - 8, end: bytes.length },
    ],
  };
}

function bunElfOf(payload: Buffer): { bytes: Buffer; hot: Region[] } {
  const block = lengthPrefixed(payload);
  const shell = elfShell({ sections: [{ name: ".bun", type: 1, data: block }] });
  const at = shell.bytes.indexOf(block.subarray(0, 72));
  return { bytes: shell.bytes, hot: [...shell.hot, ...hotAt(payload, at + 8)] };
}

function seaElfOf(blob: Buffer): { bytes: Buffer; hot: Region[] } {
  const fuse = Buffer.from(`${SEA_FUSE}:1\0`);
  const shell = elfShell({ notes: [{ name: "NODE_SEA_BLOB", type: 0, desc: blob }], extra: fuse });
  return shell;
}

const align = (n: number, a: number) => Math.ceil(n / a) * a;

/** PE32+ with the given sections (raw data 512-aligned) and, optionally, a resource data directory. */
function peShell(sections: Array<{ name: string; data: (rva: number) => Buffer; resources?: boolean }>): {
  bytes: Buffer;
  hot: Region[];
  at: number[];
} {
  const lfanew = 64;
  const optSize = 112 + 16 * 8;
  const secTable = lfanew + 24 + optSize;
  let raw = align(secTable + sections.length * 40, 512);
  const headers = Buffer.alloc(raw);
  headers.write("MZ", 0, "latin1");
  headers.writeUInt32LE(lfanew, 0x3c);
  headers.writeUInt32LE(0x00004550, lfanew);
  headers.writeUInt16LE(0x8664, lfanew + 4);
  headers.writeUInt16LE(sections.length, lfanew + 6);
  headers.writeUInt16LE(optSize, lfanew + 20);
  headers.writeUInt16LE(0x22, lfanew + 22);
  const opt = lfanew + 24;
  headers.writeUInt16LE(0x20b, opt);
  headers.writeUInt32LE(0x200, opt + 36); // FileAlignment
  headers.writeUInt32LE(16, opt + 108); // NumberOfRvaAndSizes
  const bodies: Buffer[] = [];
  const at: number[] = [];
  sections.forEach((s, i) => {
    const rva = 0x1000 * (i + 1);
    const data = s.data(rva);
    const o = secTable + i * 40;
    headers.write(s.name, o, "latin1");
    headers.writeUInt32LE(data.length, o + 8);
    headers.writeUInt32LE(rva, o + 12);
    headers.writeUInt32LE(align(data.length, 512), o + 16);
    headers.writeUInt32LE(raw, o + 20);
    headers.writeUInt32LE(0x40000040, o + 36);
    if (s.resources) {
      headers.writeUInt32LE(rva, opt + 112 + 2 * 8);
      headers.writeUInt32LE(data.length, opt + 112 + 2 * 8 + 4);
    }
    at.push(raw);
    bodies.push(Buffer.concat([data, Buffer.alloc(align(data.length, 512) - data.length)]));
    raw += align(data.length, 512);
  });
  return { bytes: Buffer.concat([headers, ...bodies]), hot: [{ start: 0, end: secTable + sections.length * 40 }], at };
}

/** A resource section holding RT_RCDATA/NAME/lang 0 = `blob`, laid out as the PE spec's directory tree. */
function rcdata(name: string, blob: Buffer): (rva: number) => Buffer {
  return (rva) => {
    const head = Buffer.alloc(120);
    head.writeUInt16LE(1, 14); // root: one id entry
    head.writeUInt32LE(10, 16); // RT_RCDATA
    head.writeUInt32LE(0x80000000 + 24, 20);
    head.writeUInt16LE(1, 24 + 12); // type dir: one named entry
    head.writeUInt32LE(0x80000000 + 88, 40);
    head.writeUInt32LE(0x80000000 + 48, 44);
    head.writeUInt16LE(1, 48 + 14); // name dir: one id entry (language 0)
    head.writeUInt32LE(0, 64);
    head.writeUInt32LE(72, 68);
    head.writeUInt32LE(rva + 120, 72); // data entry
    head.writeUInt32LE(blob.length, 76);
    head.writeUInt16LE(name.length, 88);
    head.write(name, 90, "utf16le");
    return Buffer.concat([head, blob]);
  };
}

/** Thin 64-bit little-endian Mach-O (arm64) with one segment holding one section of `data`. */
function machoShell(segname: string, sectname: string, data: Buffer): { bytes: Buffer; hot: Region[] } {
  const cmdsize = 72 + 80;
  const dataAt = align(32 + cmdsize, 16);
  const b = Buffer.alloc(dataAt + data.length);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(0x0100000c, 4);
  b.writeUInt32LE(2, 12); // MH_EXECUTE
  b.writeUInt32LE(1, 16);
  b.writeUInt32LE(cmdsize, 20);
  b.writeUInt32LE(0x19, 32); // LC_SEGMENT_64
  b.writeUInt32LE(cmdsize, 36);
  b.write(segname, 40, "latin1");
  b.writeBigUInt64LE(0x100000000n, 56);
  b.writeBigUInt64LE(BigInt(align(data.length, 0x4000)), 64);
  b.writeBigUInt64LE(BigInt(dataAt), 72);
  b.writeBigUInt64LE(BigInt(data.length), 80);
  b.writeUInt32LE(3, 88);
  b.writeUInt32LE(3, 92);
  b.writeUInt32LE(1, 96); // nsects
  const sect = 32 + 72;
  b.write(sectname, sect, "latin1");
  b.write(segname, sect + 16, "latin1");
  b.writeBigUInt64LE(0x100000000n, sect + 32);
  b.writeBigUInt64LE(BigInt(data.length), sect + 40);
  b.writeUInt32LE(dataAt, sect + 48);
  data.copy(b, dataAt);
  return { bytes: b, hot: [{ start: 0, end: dataAt + 16 }] };
}

/** A fat (universal) file of thin Mach-Os, slices 4 KiB-aligned. */
function fatOf(slices: Buffer[]): { bytes: Buffer; hot: Region[] } {
  const header = Buffer.alloc(8 + 20 * slices.length);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(slices.length, 4);
  const parts: Buffer[] = [header];
  let off = align(header.length, 4096);
  const hot: Region[] = [{ start: 0, end: header.length }];
  slices.forEach((s, i) => {
    header.writeUInt32BE(s.readUInt32LE(4), 8 + 20 * i);
    header.writeUInt32BE(off, 8 + 20 * i + 8);
    header.writeUInt32BE(s.length, 8 + 20 * i + 12);
    header.writeUInt32BE(12, 8 + 20 * i + 16);
    const used = parts.reduce((n, p) => n + p.length, 0);
    parts.push(Buffer.alloc(off - used), s);
    hot.push({ start: off, end: off + 256 });
    off = align(off + s.length, 4096);
  });
  return { bytes: Buffer.concat(parts), hot };
}

function lengthPrefixed(payload: Buffer): Buffer {
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(payload.length));
  return Buffer.concat([len, payload]);
}

/** Shift payload hot regions to where the payload sits in a file. */
function hotAt(payload: Buffer, base: number): Region[] {
  return [{ start: base - 8, end: base }, ...payloadHot(payload).map((r) => ({ start: r.start + base, end: r.end + base }))];
}

function noise(n: number, rng: Rng): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = rng.int(256);
  return b;
}

const SCRIPT = [
  'import { readFileSync } from "node:fs";',
  "export function search(q, tools) {",
  "  const s = q.toLowerCase();",
  "  return tools.filter((t) => t.name.includes(s)).map((t) => ({ ...t, score: t.name.length }));",
  "}",
  "export default search(process.argv[2] ?? '', JSON.parse(readFileSync(0, 'utf8')));",
].join("\n");

function buildCorpora(): Corpus[] {
  const out: Corpus[] = [];
  const rng = new Rng(SEED ^ 0xabcdef);
  const add = (name: string, file: string, expectFormat: string, c: { bytes: Buffer; hot: Region[] }) =>
    out.push({ name, file, expectFormat, bytes: c.bytes, hot: c.hot.filter((r) => r.end > r.start) });

  // Bun: real module graphs (modern 52-byte records; bytecode; old 28- and 32-byte eras).
  const modern = elfPayload(buildBun({}).path);
  add("bun-elf (1.4 graph in a minimal ELF)", "app", "bun-elf", bunElfOf(modern));
  add("bun-legacy (1.4 graph appended)", "app", "bun-legacy", legacyOf(modern));
  const bytecode = elfPayload(buildBun({ flags: ["--bytecode"] }).path);
  if (bytecode.length <= 8 * 1024 * 1024) add("bun-elf --bytecode", "app", "bun-elf", bunElfOf(bytecode));
  for (const version of ["1.1.25", "1.0.14"]) {
    const tail = legacyTailBytes(buildBun({ version }).path);
    add(`bun-legacy ${version} (real tail)`, "app", "bun-legacy", {
      bytes: tail,
      hot: [{ start: Math.max(0, tail.length - 4096), end: tail.length }],
    });
  }

  // Node SEA: a real blob (main + assets) in a minimal ELF with a PT_NOTE.
  const sea = seaFixture({
    node: process.execPath,
    main: join(SEA_APP, "app.js"),
    assets: { "words.txt": join(SEA_APP, "words.txt"), "img/icon.bin": join(SEA_APP, "icon.bin") },
    carrier: "blob",
  });
  const blob = readFileSync(sea.blob);
  const seaShell = seaElfOf(blob);
  const blobAt = seaShell.bytes.indexOf(blob.subarray(0, 32));
  add("node-sea-elf (real blob, PT_NOTE)", "app", "node-sea-elf", {
    bytes: seaShell.bytes,
    hot: [...seaShell.hot, { start: blobAt, end: blobAt + 96 }],
  });
  const seaPe = peShell([{ name: ".rsrc", data: rcdata("NODE_SEA_BLOB", blob), resources: true }]);
  add("node-sea-pe (real blob, RT_RCDATA)", "app.exe", "node-sea-pe", {
    bytes: seaPe.bytes,
    hot: [...seaPe.hot, { start: seaPe.at[0]!, end: seaPe.at[0]! + 120 + 96 }],
  });
  const seaMacho = machoShell("NODE_SEA", "__NODE_SEA_BLOB", blob);
  add("node-sea-macho (real blob, NODE_SEA segment)", "app", "node-sea-macho", {
    bytes: seaMacho.bytes,
    hot: [...seaMacho.hot, { start: 160, end: 160 + 96 }],
  });

  // The modern graph in the other Bun carriers: PE .bun section, thin and fat Mach-O __BUN,__bun.
  const bunPe = peShell([{ name: ".bun", data: () => lengthPrefixed(modern) }]);
  add("bun-pe (1.4 graph, .bun section)", "app.exe", "bun-pe", {
    bytes: bunPe.bytes,
    hot: [...bunPe.hot, ...hotAt(modern, bunPe.at[0]! + 8)],
  });
  const thin = machoShell("__BUN", "__bun", lengthPrefixed(modern));
  add("bun-macho (1.4 graph, __BUN,__bun)", "app", "bun-macho", { bytes: thin.bytes, hot: [...thin.hot, ...hotAt(modern, 160 + 8)] });
  const thinX64 = Buffer.from(thin.bytes);
  thinX64.writeUInt32LE(0x01000007, 4);
  add("bun-macho fat (two slices)", "app", "bun-macho", fatOf([thin.bytes, thinX64]));

  // Plain script, npm .tgz, carvable unknown binary.
  const script = Buffer.from(SCRIPT + "\n" + "console.log(search('a', [{ name: 'abc' }]));\n".repeat(20));
  add("plain-script .mjs", "cli.mjs", "plain-script", {
    bytes: script,
    hot: [
      { start: 0, end: 200 },
      { start: script.length - 200, end: script.length },
    ],
  });

  const pkgDir = mkdtempSync(join(work, "pkg-"));
  writeFileSync(join(pkgDir, "cli.js"), script);
  writeFileSync(join(pkgDir, "package.json"), JSON.stringify({ name: "fuzz", version: "1.0.0", bin: { fuzz: "cli.js" } }));
  const tgzPath = join(work, "fuzz.tgz");
  tar.c({ gzip: true, file: tgzPath, cwd: pkgDir, sync: true, portable: true, prefix: "package" }, ["cli.js", "package.json"]);
  const tgz = readFileSync(tgzPath);
  add("npm .tgz", "fuzz.tgz", "npm-package", {
    bytes: tgz,
    hot: [
      { start: 0, end: 64 },
      { start: tgz.length - 64, end: tgz.length },
    ],
  });

  const carved = Buffer.concat([noise(20_000, rng), Buffer.from([0]), script, Buffer.from([0]), noise(20_000, rng)]);
  add("carved unknown binary", "blob.bin", "carved", {
    bytes: carved,
    hot: [
      { start: 19_990, end: 20_400 },
      { start: 20_000 + script.length - 200, end: 20_000 + script.length + 20 },
    ],
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mutations

type Mutation = { op: string; apply: (b: Buffer) => Buffer };

function hotOffset(c: Corpus, rng: Rng, size: number, align = 1): number {
  const r = rng.chance(0.85) && c.hot.length ? rng.pick(c.hot) : { start: 0, end: size };
  const span = Math.max(1, Math.min(r.end, size) - r.start);
  const at = r.start + rng.int(span);
  return Math.min(size - 1, at - (at % align));
}

function mutation(c: Corpus, rng: Rng): Mutation {
  const kind = rng.int(8);
  switch (kind) {
    case 0: {
      const at = rng.chance(0.5) ? hotOffset(c, rng, c.bytes.length) : rng.int(c.bytes.length);
      return { op: `truncate@${at}`, apply: (b) => b.subarray(0, Math.min(at, b.length)) };
    }
    case 1: {
      const n = 1 + rng.int(8);
      const spots = Array.from({ length: n }, () => [hotOffset(c, rng, c.bytes.length), rng.int(256)] as const);
      return { op: `flip×${n}`, apply: (b) => (spots.forEach(([o, v]) => o < b.length && (b[o] = v)), b) };
    }
    case 2: {
      const at = hotOffset(c, rng, c.bytes.length, 4);
      const v = rng.pick(U32_SPECIAL);
      return { op: `u32@${at}=0x${v.toString(16)}`, apply: (b) => (at + 4 <= b.length && b.writeUInt32LE(v, at), b) };
    }
    case 3: {
      const at = hotOffset(c, rng, c.bytes.length, 8);
      const v = rng.pick(U64_SPECIAL);
      return { op: `u64@${at}=0x${v.toString(16)}`, apply: (b) => (at + 8 <= b.length && b.writeBigUInt64LE(v, at), b) };
    }
    case 4: {
      // Overlap: copy one table field (an offset/length pair) over another.
      const from = hotOffset(c, rng, c.bytes.length, 4);
      const to = hotOffset(c, rng, c.bytes.length, 4);
      const n = rng.pick([4, 8, 16]);
      return {
        op: `copy${n}@${from}->${to}`,
        apply: (b) => (from + n <= b.length && to + n <= b.length && b.copy(b, to, from, from + n), b),
      };
    }
    case 5: {
      const at = hotOffset(c, rng, c.bytes.length, 4);
      const n = 1 + rng.int(64);
      return { op: `zero${n}@${at}`, apply: (b) => b.fill(0, at, Math.min(b.length, at + n)) };
    }
    case 6: {
      // Lengths that almost fit: the field plus or minus a little.
      const at = hotOffset(c, rng, c.bytes.length, 4);
      const d = rng.pick([-8, -1, 1, 8, 4096, -4096]);
      return { op: `u32@${at}+=${d}`, apply: (b) => (at + 4 <= b.length && b.writeUInt32LE((b.readUInt32LE(at) + d) >>> 0, at), b) };
    }
    default: {
      const a = mutation(c, rng);
      const b2 = mutation(c, rng);
      return { op: `${a.op} + ${b2.op}`, apply: (b) => b2.apply(a.apply(b)) };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Running

interface Failure {
  corpus: string;
  seed: number;
  op: string;
  problem: string;
}

/** Open, list and read every module; the outcome is fine if it succeeds or throws a one-line SearchliftError. */
function runOne(file: string): { problem: string | null; ms: number; opened: boolean } {
  const t = performance.now();
  let opened = false;
  try {
    const c = openContainer(file);
    opened = true;
    try {
      for (const m of c.modules) {
        const raw = c.read(m);
        if (raw.length !== m.end - m.start)
          return { problem: `read ${m.path} gave ${raw.length} bytes for [${m.start}, ${m.end})`, ms: performance.now() - t, opened };
        if (m.encoding !== "binary") c.text(m);
      }
    } finally {
      c.close();
    }
    return { problem: null, ms: performance.now() - t, opened };
  } catch (e) {
    const ms = performance.now() - t;
    if (!(e instanceof SearchliftError))
      return {
        problem: `${(e as Error)?.constructor?.name ?? typeof e}: ${String((e as Error)?.stack ?? e)
          .split("\n")
          .slice(0, 4)
          .join(" | ")}`,
        ms,
        opened,
      };
    if (e.message.includes("\n")) return { problem: `multi-line message: ${JSON.stringify(e.message)}`, ms, opened };
    return { problem: null, ms, opened };
  }
}

describe("mutation fuzz over every container reader", () => {
  let corpora: Corpus[] = [];
  beforeAll(() => {
    corpora = buildCorpora();
  }, 600_000);

  it("baselines open with the expected format (so mutations start from valid containers)", async ({ annotate }) => {
    expect(corpora.length).toBeGreaterThanOrEqual(14);
    for (const c of corpora) {
      const file = join(work, "base-" + c.file);
      writeFileSync(file, c.bytes);
      const got = openContainer(file);
      try {
        expect(got.format, c.name).toBe(c.expectFormat);
        expect(got.modules.length, c.name).toBeGreaterThan(0);
        for (const m of got.modules) got.read(m);
      } finally {
        got.close();
      }
      await annotate(`fuzz corpus ${c.name}: ${c.bytes.length} bytes, ${got.modules.length} modules, ${c.hot.length} hot regions`);
    }
    expect(readdirSync(scratch)).toEqual([]);
  });

  it(`${CASES_PER_CORPUS} mutations per corpus: success or a one-line SearchliftError, within ${CASE_BUDGET_MS} ms, no temp files left`, async ({
    annotate,
  }) => {
    const failures: Failure[] = [];
    let total = 0;
    let opened = 0;
    let slowest = { ms: 0, what: "" };
    const t0 = performance.now();
    corpora.forEach((c, ci) => {
      const file = join(work, `case-${ci}-${c.file}`);
      for (let i = 0; i < CASES_PER_CORPUS; i++) {
        const seed = (SEED + ci * 100_003 + i) >>> 0;
        const rng = new Rng(seed);
        const m = mutation(c, rng);
        writeFileSync(file, m.apply(Buffer.from(c.bytes)));
        const r = runOne(file);
        total++;
        if (r.opened) opened++;
        if (r.ms > slowest.ms) slowest = { ms: r.ms, what: `${c.name} seed ${seed} ${m.op}` };
        if (r.problem) failures.push({ corpus: c.name, seed, op: m.op, problem: r.problem });
        else if (r.ms > CASE_BUDGET_MS) failures.push({ corpus: c.name, seed, op: m.op, problem: `took ${r.ms.toFixed(0)} ms` });
      }
    });
    await annotate(
      `fuzz: ${total} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${opened} opened, ${total - opened} rejected with SearchliftError; slowest ${slowest.ms.toFixed(0)} ms (${slowest.what})`,
    );
    if (failures.length)
      await annotate(
        failures
          .slice(0, 20)
          .map((f) => `${f.corpus} seed=${f.seed} ${f.op}: ${f.problem}`)
          .join("\n"),
      );
    expect(failures).toEqual([]);
    expect(readdirSync(scratch)).toEqual([]);
  }, 300_000);
});

// ---------------------------------------------------------------------------------------------
// Real executables (~100 MB), mutated in place through a patched view: no copy per case. The
// carver is left out here (it would scan 100 MB per case); its own corpus above covers it.

/** A file seen through byte patches and an optional truncation. */
class PatchedSource implements ByteSource {
  constructor(
    private readonly base: FileByteSource,
    readonly size: number,
    private readonly patches: Array<[number, Buffer]>,
  ) {}
  get path(): string {
    return this.base.path;
  }
  read(start: number, length: number, what?: string): Buffer {
    checkRange(this, start, length, what);
    const b = Buffer.from(this.base.read(start, length, what));
    for (const [at, bytes] of this.patches) {
      const from = Math.max(at, start);
      const to = Math.min(at + bytes.length, start + length);
      if (from < to) bytes.copy(b, from - start, from - at, to - at);
    }
    return b;
  }
  readInto(start: number, length: number): Buffer {
    return this.read(start, length);
  }
  close(): void {}
}

interface RealTarget {
  name: string;
  path: string;
  hot: Region[];
  expectFormat: string;
}

/** Where a Bun payload's Offsets/trailer and module table sit, given the [u64 len][payload] block at `at`. */
function bunBlockHot(src: ByteSource, at: number): Region[] {
  const len = Number(src.read(at, 8).readBigUInt64LE(0));
  const start = at + 8;
  const end = start + len;
  const hot: Region[] = [
    { start: at, end: at + 8 },
    { start: end - 48, end },
  ];
  const table = src.read(end - 16 - 32 + 8, 8);
  const off = table.readUInt32LE(0);
  const n = table.readUInt32LE(4);
  if (off + n <= len) hot.push({ start: start + off, end: start + off + Math.min(n, 4096) });
  return hot;
}

function realTargets(): RealTarget[] {
  const out: RealTarget[] = [];
  const withSrc = <T>(path: string, f: (src: FileByteSource) => T): T => {
    const src = new FileByteSource(path);
    try {
      return f(src);
    } finally {
      src.close();
    }
  };
  const elfHot = (src: FileByteSource): Region[] => {
    const elf = readElf(src);
    const hot: Region[] = [
      { start: 0, end: 64 },
      { start: elf.shoff, end: elf.shoff + elf.shSize },
    ];
    const phoff = Number(src.read(32, 8).readBigUInt64LE(0));
    hot.push({ start: phoff, end: phoff + 56 * elf.segments.length });
    for (const s of elf.sections) if (s.name === ".shstrtab") hot.push({ start: s.offset, end: s.offset + Math.min(s.size, 512) });
    for (const g of elf.segments) if (g.type === 4) hot.push({ start: g.offset, end: g.offset + Math.min(g.filesz, 256) });
    return hot;
  };

  const elfBun = buildBun({}).path;
  out.push({
    name: "real Bun 1.4 ELF",
    path: elfBun,
    expectFormat: "bun-elf",
    hot: withSrc(elfBun, (src) => {
      const bun = readElf(src).sections.find((x) => x.name === ".bun")!;
      return [...elfHot(src), ...bunBlockHot(src, bun.offset)];
    }),
  });
  const peBun = buildBun({ target: "bun-windows-x64" }).path;
  out.push({
    name: "real Bun 1.4 PE",
    path: peBun,
    expectFormat: "bun-pe",
    hot: withSrc(peBun, (src) => {
      const pe = readPe(src);
      const lfanew = src.read(0x3c, 4).readUInt32LE(0);
      const bun = pe.sections.find((x) => x.name === ".bun")!;
      return [{ start: 0, end: 64 }, { start: lfanew, end: pe.headersEnd }, ...bunBlockHot(src, bun.pointerToRawData)];
    }),
  });
  const machoBun = buildBun({ target: "bun-darwin-arm64" }).path;
  out.push({
    name: "real Bun 1.4 Mach-O",
    path: machoBun,
    expectFormat: "bun-macho",
    hot: withSrc(machoBun, (src) => {
      const [m] = readMacho(src);
      const cmds = src.read(20, 4).readUInt32LE(0);
      const sect = m!.segments.find((x) => x.segname === "__BUN")!.sections[0]!;
      return [{ start: 0, end: 32 + cmds }, ...bunBlockHot(src, sect.offset)];
    }),
  });
  const sea = seaFixture({
    node: process.execPath,
    main: join(SEA_APP, "app.js"),
    assets: { "words.txt": join(SEA_APP, "words.txt"), "img/icon.bin": join(SEA_APP, "icon.bin") },
    carrier: "postject",
  });
  out.push({ name: "real Node SEA ELF (postject)", path: sea.exe!, expectFormat: "node-sea-elf", hot: withSrc(sea.exe!, elfHot) });
  return out;
}

function patchMutation(t: RealTarget, base: FileByteSource, rng: Rng): { op: string; size: number; patches: Array<[number, Buffer]> } {
  const hot = () => {
    const r = rng.chance(0.9) ? rng.pick(t.hot) : { start: 0, end: base.size };
    return Math.min(base.size - 8, r.start + rng.int(Math.max(1, r.end - r.start)));
  };
  const le32 = (v: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    return b;
  };
  switch (rng.int(7)) {
    case 0: {
      const at = hot();
      return { op: `truncate@${at}`, size: at, patches: [] };
    }
    case 1: {
      const n = 1 + rng.int(8);
      const patches = Array.from({ length: n }, () => [hot(), Buffer.from([rng.int(256)])] as [number, Buffer]);
      return { op: `flip×${n}`, size: base.size, patches };
    }
    case 2: {
      const at = hot() & ~3;
      const v = rng.pick(U32_SPECIAL);
      return { op: `u32@${at}=0x${v.toString(16)}`, size: base.size, patches: [[at, le32(v)]] };
    }
    case 3: {
      const at = hot() & ~7;
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(rng.pick(U64_SPECIAL));
      return { op: `u64@${at}=0x${b.readBigUInt64LE(0).toString(16)}`, size: base.size, patches: [[at, b]] };
    }
    case 4: {
      const from = hot() & ~3;
      const to = hot() & ~3;
      const n = rng.pick([4, 8, 16]);
      return {
        op: `copy${n}@${from}->${to}`,
        size: base.size,
        patches: [[to, Buffer.from(base.read(from, Math.min(n, base.size - from)))]],
      };
    }
    case 5: {
      const at = hot();
      const n = 1 + rng.int(64);
      return { op: `zero${n}@${at}`, size: base.size, patches: [[at, Buffer.alloc(Math.min(n, base.size - at))]] };
    }
    default: {
      const at = hot() & ~3;
      const d = rng.pick([-8, -1, 1, 8, 4096, -4096]);
      return { op: `u32@${at}+=${d}`, size: base.size, patches: [[at, le32(base.read(at, 4).readUInt32LE(0) + d)]] };
    }
  }
}

const REAL_CASES = Number(process.env.SEARCHLIFT_FUZZ_REAL_CASES ?? 1000);

describe("mutation fuzz over real executables, in place", () => {
  let targets: RealTarget[] = [];
  beforeAll(() => {
    targets = realTargets();
  }, 1_200_000);

  it(`${REAL_CASES} header/table mutations per real Bun ELF/PE/Mach-O and Node SEA executable: the Bun and SEA readers return a container, null, or a one-line SearchliftError`, async ({
    annotate,
  }) => {
    const failures: Failure[] = [];
    let total = 0;
    let opened = 0;
    let slowest = { ms: 0, what: "" };
    const t0 = performance.now();
    targets.forEach((t, ti) => {
      const base = new FileByteSource(t.path);
      try {
        const baseline = readBun(base, t.path) ?? readNodeSea(base, t.path);
        expect(baseline?.format, t.name).toBe(t.expectFormat);
        for (let i = 0; i < REAL_CASES; i++) {
          const seed = (SEED + 7_000_003 * (ti + 1) + i) >>> 0;
          const m = patchMutation(t, base, new Rng(seed));
          const src = new PatchedSource(base, m.size, m.patches);
          const start = performance.now();
          let problem: string | null = null;
          try {
            const c: Container | null = readBun(src, t.path) ?? readNodeSea(src, t.path);
            if (c) {
              opened++;
              for (const mod of c.modules) {
                if (c.read(mod).length !== mod.end - mod.start) problem = `short read of ${mod.path}`;
                if (mod.encoding !== "binary") c.text(mod);
              }
            }
          } catch (e) {
            if (!(e instanceof SearchliftError))
              problem = `${(e as Error)?.constructor?.name}: ${String((e as Error)?.stack ?? e)
                .split("\n")
                .slice(0, 4)
                .join(" | ")}`;
            else if (e.message.includes("\n")) problem = `multi-line message: ${JSON.stringify(e.message)}`;
          }
          const ms = performance.now() - start;
          total++;
          if (ms > slowest.ms) slowest = { ms, what: `${t.name} seed ${seed} ${m.op}` };
          if (!problem && ms > CASE_BUDGET_MS) problem = `took ${ms.toFixed(0)} ms`;
          if (problem) failures.push({ corpus: t.name, seed, op: m.op, problem });
        }
      } finally {
        base.close();
      }
    });
    await annotate(
      `fuzz (real executables): ${total} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${opened} opened; slowest ${slowest.ms.toFixed(0)} ms (${slowest.what})`,
    );
    if (failures.length)
      await annotate(
        failures
          .slice(0, 20)
          .map((f) => `${f.corpus} seed=${f.seed} ${f.op}: ${f.problem}`)
          .join("\n"),
      );
    expect(failures).toEqual([]);
  }, 600_000);
});
