/**
 * readBun on executables compiled at test time from samples/bun-app with real Bun releases:
 * the devDependency (1.4.x) for the host, musl, darwin arm64/x64 (and a fat file of both),
 * windows x64, --bytecode (cjs and esm) and --sourcemap; older releases from npm for the legacy
 * appended layout, 24-byte Offsets and 36/28/32-byte records, u32-length Mach-O/PE (1.3.0 cross builds),
 * and 1.0.x's compiled://root/.
 *
 * What is checked is what the build must have produced: the assets' bytes equal the input files,
 * the bundle holds each sample's distinctive literals (decoded), the module list, kinds and entry
 * follow from the build command, and every range lies where the file's own headers put the payload.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileByteSource } from "../src/extract/byte-source.js";
import { readBun } from "../src/extract/bun.js";
import { readElf } from "../src/extract/elf.js";
import { readMacho } from "../src/extract/macho.js";
import { readPe } from "../src/extract/pe.js";
import type { Container, ModuleEntry } from "../src/extract/types.js";
import { buildBun, fatMacho, SAMPLES, type BunBuild, type BuiltFixture } from "./helpers/bun-fixtures.js";

const sample = (f: string) => readFileSync(join(SAMPLES, f));
const UNICODE = "→ ünïcödé 日本";

function open(path: string): Container {
  const c = readBun(new FileByteSource(path), path);
  expect(c, `${path} is read as Bun`).not.toBeNull();
  return c!;
}

/** Undo the bundler's \uXXXX / \xXX escapes so literals can be compared with the sources. */
function unescapeJs(s: string): string {
  return s.replace(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g, (_m, a, b, c) =>
    String.fromCodePoint(parseInt(a ?? b ?? c, 16)),
  );
}

const TRAILER = Buffer.from("\n---- Bun! ----\n");

/**
 * `[len][payload]` at `at`, with len as u64 (≥1.3.4) or u32 (Mach-O/PE ≤1.3.3): whichever makes the
 * payload end in the trailer. Independent of the reader's own code.
 */
function lengthPrefixed(src: FileByteSource, at: number): { width: number; start: number; end: number } {
  for (const width of [8, 4]) {
    const len = width === 8 ? Number(src.read(at, 8).readBigUInt64LE()) : src.read(at, 4).readUInt32LE();
    const end = at + width + len;
    if (end <= src.size && src.read(end - 16, 16).equals(TRAILER)) return { width, start: at + width, end };
  }
  throw new Error(`no [length][payload] block at ${at}`);
}

/** The payload as the executable's own headers describe it (independent of readBun). */
function payloadRegion(path: string, format: string): { width: number; start: number; end: number } {
  const src = new FileByteSource(path);
  try {
    if (format === "bun-elf") return lengthPrefixed(src, readElf(src).sections.find((s) => s.name === ".bun")!.offset);
    if (format === "bun-macho") {
      const sect = readMacho(src)[0]!
        .segments.find((s) => s.segname === "__BUN")!
        .sections.find((s) => s.sectname === "__bun")!;
      return lengthPrefixed(src, sect.offset);
    }
    if (format === "bun-pe") return lengthPrefixed(src, readPe(src).sections.find((s) => s.name === ".bun")!.pointerToRawData);
    // Legacy: [executable][payload][u64 file size]; the last 8 bytes must state the file size.
    expect(Number(src.read(src.size - 8, 8).readBigUInt64LE())).toBe(src.size);
    expect(src.read(src.size - 24, 16).equals(TRAILER)).toBe(true);
    return { width: 0, start: 0, end: src.size - 8 };
  } finally {
    src.close();
  }
}

function expectInside(modules: ModuleEntry[], r: { start: number; end: number }): void {
  for (const m of modules) {
    expect(m.start, m.path).toBeGreaterThanOrEqual(r.start);
    expect(m.end, m.path).toBeLessThanOrEqual(r.end);
    expect(m.end - m.start, m.path).toBe(m.size);
  }
}

function byName(c: Container, re: RegExp): ModuleEntry {
  const hits = c.modules.filter((m) => re.test(m.path));
  expect(
    hits.map((m) => m.path),
    String(re),
  ).toHaveLength(1);
  return hits[0]!;
}

/** The bundle must carry every JS sample's marker literal, with the unicode one decoded correctly. */
function expectBundle(c: Container, m: ModuleEntry, opts: { textInlined: boolean }): void {
  expect(m.kind).toBe("js");
  expect(m.loader).toBe("js");
  const text = unescapeJs(c.text(m));
  expect(text).toContain('"SEARCHLIFT_ENTRY_MARKER"');
  expect(text).toContain('"SEARCHLIFT_LATIN1_MARKER hello "');
  expect(text).toContain(`"SEARCHLIFT_UNICODE_MARKER ${UNICODE}"`);
  // Old releases inline `with {type:"text"}` imports as string literals instead of embedding files.
  if (opts.textInlined) expect(text).toContain("searchlift sample text asset");
}

/** Modules every 1.4 build of main.js must contain: the bundle and three embedded assets. */
function expectModern(c: Container, root: string, fx: BuiltFixture): void {
  expect(c.runtime).toBe(`Bun v${fx.bunVersion}`);
  expect(c.entry).toBe(`${root}app`);
  const entry = byName(c, /\/app$/);
  expect(entry.path).toBe(c.entry);
  expectBundle(c, entry, { textInlined: false });

  const notes = byName(c, /\/notes-[a-z0-9]+\.txt$/);
  expect([notes.kind, notes.loader, notes.encoding]).toEqual(["asset", "text", "latin1"]);
  expect(c.read(notes).equals(sample("notes.txt"))).toBe(true);

  // Text outside Latin-1 is stored as UTF-16LE at an even offset; decoded it is the file's text.
  const wide = byName(c, /\/unicode-[a-z0-9]+\.txt$/);
  expect([wide.kind, wide.loader, wide.encoding]).toEqual(["asset", "text", "utf16le"]);
  expect(c.text(wide)).toBe(sample("unicode.txt").toString("utf8"));
  expect(c.read(wide).equals(Buffer.from(sample("unicode.txt").toString("utf8"), "utf16le"))).toBe(true);

  const bin = byName(c, /\/payload-[a-z0-9]+\.bin$/);
  expect([bin.kind, bin.loader, bin.encoding, bin.moduleFormat]).toEqual(["asset", "file", "binary", "none"]);
  expect(c.read(bin).equals(sample("payload.bin"))).toBe(true);

  for (const m of c.modules) expect(m.path.startsWith(root), m.path).toBe(true);
}

const MODERN: Array<{ label: string; build: BunBuild; format: string; root: string }> = [
  { label: "host (linux x64, ELF .bun section)", build: {}, format: "bun-elf", root: "/$bunfs/root/" },
  { label: "linux x64 musl", build: { target: "bun-linux-x64-musl" }, format: "bun-elf", root: "/$bunfs/root/" },
  { label: "darwin arm64 (Mach-O __BUN,__bun)", build: { target: "bun-darwin-arm64" }, format: "bun-macho", root: "/$bunfs/root/" },
  { label: "darwin x64", build: { target: "bun-darwin-x64" }, format: "bun-macho", root: "/$bunfs/root/" },
  { label: "windows x64 (PE .bun)", build: { target: "bun-windows-x64" }, format: "bun-pe", root: "B:/~BUN/root/" },
];

describe("Bun 1.4 builds of samples/bun-app", () => {
  for (const t of MODERN) {
    it(t.label, () => {
      const fx = buildBun(t.build);
      const c = open(fx.path);
      try {
        expect(c.format).toBe(t.format);
        expect(c.modules).toHaveLength(4);
        expectModern(c, t.root, fx);
        const bundle = byName(c, /\/app$/);
        expect([bundle.moduleFormat, bundle.bytecode, bundle.extra?.sourcemap]).toEqual(["esm", false, false]);
        const region = payloadRegion(fx.path, t.format);
        expect(region.width).toBe(8);
        expectInside(c.modules, region);
      } finally {
        c.close();
      }
    });
  }

  it("a second entry point becomes its own Latin-1 module", () => {
    const fx = buildBun({ entries: ["main.js", "worker.js"] });
    const c = open(fx.path);
    try {
      expect(c.modules).toHaveLength(5);
      expectModern(c, "/$bunfs/root/", fx);
      const worker = byName(c, /\/worker\.js$/);
      expect([worker.kind, worker.encoding]).toEqual(["js", "latin1"]);
      const text = c.text(worker);
      expect(text).toContain('"SEARCHLIFT_WORKER_MARKER"');
      expect(text).toContain('"SEARCHLIFT_LATIN1_MARKER hello "');
      expect(text).not.toContain("SEARCHLIFT_UNICODE_MARKER");
    } finally {
      c.close();
    }
  });

  it("--bytecode: CJS source kept beside the bytecode", () => {
    const fx = buildBun({ flags: ["--bytecode"] });
    const c = open(fx.path);
    try {
      expectModern(c, "/$bunfs/root/", fx);
      const m = byName(c, /\/app$/);
      expect([m.bytecode, m.moduleFormat]).toEqual([true, "cjs"]);
      expect(c.text(m).startsWith("// @bun @bytecode @bun-cjs\n")).toBe(true);
      expect(m.extra?.bytecodeSize).toBeGreaterThan(0);
      expectInside(c.modules, payloadRegion(fx.path, "bun-elf"));
    } finally {
      c.close();
    }
  });

  it("--bytecode --format=esm", () => {
    const fx = buildBun({ flags: ["--bytecode", "--format=esm"] });
    const c = open(fx.path);
    try {
      expectModern(c, "/$bunfs/root/", fx);
      const m = byName(c, /\/app$/);
      expect([m.bytecode, m.moduleFormat]).toEqual([true, "esm"]);
      expect(c.text(m).startsWith("// @bun @bytecode\n")).toBe(true);
      for (const a of c.modules.filter((x) => x.kind === "asset")) expect(a.bytecode).toBe(false);
    } finally {
      c.close();
    }
  });

  it("--sourcemap: the bundle records an embedded sourcemap, assets do not", () => {
    const fx = buildBun({ flags: ["--sourcemap"] });
    const c = open(fx.path);
    try {
      expectModern(c, "/$bunfs/root/", fx);
      const m = byName(c, /\/app$/);
      expect(m.extra?.sourcemap).toBe(true);
      expect(m.extra?.sourcemapSize).toBeGreaterThan(0);
      for (const a of c.modules.filter((x) => x.kind === "asset")) expect(a.extra?.sourcemap).toBe(false);
    } finally {
      c.close();
    }
  });

  it("a fat Mach-O (arm64 + x64): modules come from the first slice, inside it", () => {
    const arm = buildBun({ target: "bun-darwin-arm64" });
    const x64 = buildBun({ target: "bun-darwin-x64" });
    const fat = fatMacho([arm.path, x64.path]);
    const c = open(fat);
    try {
      expect(c.format).toBe("bun-macho");
      expect(c.modules).toHaveLength(4);
      expectModern(c, "/$bunfs/root/", arm);
      expect(c.notes.join(" ")).toMatch(/fat Mach-O with 2 slices/);
      // Same offsets as in the thin arm64 file, shifted by where the slice starts.
      const src = new FileByteSource(fat);
      const slices = readMacho(src);
      src.close();
      const thin = open(arm.path);
      try {
        expect(c.modules.map((m) => m.start - slices[0]!.base)).toEqual(thin.modules.map((m) => m.start));
      } finally {
        thin.close();
      }
      expect(slices[1]!.base).toBeGreaterThanOrEqual(slices[0]!.base + statSync(arm.path).size);
      for (const m of c.modules) expect(m.end).toBeLessThanOrEqual(slices[0]!.base + slices[0]!.size);
    } finally {
      c.close();
    }
  });
});

/** Older releases, from `@oven/bun-linux-x64@<version>` (cross targets download their runtime from npm). */
const OLD: Array<{
  version: string;
  target?: string;
  format: string;
  entry: string;
  encoding: string;
  moduleFormat: string;
  width?: number;
  why: string;
}> = [
  {
    version: "1.3.12",
    format: "bun-elf",
    entry: "/$bunfs/root/app",
    encoding: "latin1",
    moduleFormat: "esm",
    width: 8,
    why: "first ELF .bun section release, 52-byte records",
  },
  {
    version: "1.3.0",
    format: "bun-legacy",
    entry: "/$bunfs/root/app",
    encoding: "latin1",
    moduleFormat: "esm",
    why: "appended payload, 32-byte Offsets, 36-byte records",
  },
  {
    version: "1.3.0",
    target: "bun-darwin-arm64",
    format: "bun-macho",
    entry: "/$bunfs/root/app",
    encoding: "latin1",
    moduleFormat: "esm",
    width: 4,
    why: "Mach-O __bun with a u32 length",
  },
  {
    version: "1.3.0",
    target: "bun-windows-x64",
    format: "bun-pe",
    entry: "B:/~BUN/root/app",
    encoding: "latin1",
    moduleFormat: "esm",
    width: 4,
    why: "PE .bun with a u32 length",
  },
  {
    version: "1.2.20",
    format: "bun-legacy",
    entry: "/$bunfs/root/app",
    encoding: "latin1",
    moduleFormat: "esm",
    why: "appended payload, 24-byte Offsets, 36-byte records",
  },
  {
    version: "1.1.38",
    format: "bun-legacy",
    entry: "/$bunfs/root/app",
    encoding: "latin1",
    moduleFormat: "esm",
    why: "36-byte records with the old loader numbering",
  },
  { version: "1.1.25", format: "bun-legacy", entry: "/$bunfs/root/app", encoding: "latin1", moduleFormat: "none", why: "28-byte records" },
  {
    version: "1.1.10",
    format: "bun-legacy",
    entry: "/$bunfs/root/app",
    encoding: "utf8",
    moduleFormat: "none",
    why: "32-byte records without an encoding field",
  },
  // 1.0.x names the entry after the source file and uses the compiled://root/ prefix.
  {
    version: "1.0.14",
    format: "bun-legacy",
    entry: "compiled://root/main.js",
    encoding: "utf8",
    moduleFormat: "none",
    why: "compiled://root/ virtual paths",
  },
];

describe("older Bun releases", () => {
  for (const t of OLD) {
    it(`${t.version}${t.target ? ` ${t.target}` : ""}: ${t.why}`, () => {
      const fx = buildBun({ version: t.version, target: t.target });
      const c = open(fx.path);
      try {
        expect(c.format).toBe(t.format);
        expect(c.runtime).toBe(`Bun v${t.version}`);
        expect(c.entry).toBe(t.entry);
        // Text imports are inlined by these releases; only the file asset is embedded beside the bundle.
        expect(c.modules).toHaveLength(2);
        const root = t.entry.slice(0, t.entry.lastIndexOf("/") + 1);
        for (const m of c.modules) expect(m.path.startsWith(root), m.path).toBe(true);
        const bundle = byName(c, /(\/app|main\.js)$/);
        expect(bundle.path).toBe(c.entry);
        expect([bundle.encoding, bundle.moduleFormat]).toEqual([t.encoding, t.moduleFormat]);
        expectBundle(c, bundle, { textInlined: true });
        const bin = byName(c, /\/payload-[a-z0-9]+\.bin$/);
        expect([bin.kind, bin.loader]).toEqual(["asset", "file"]);
        expect(c.read(bin).equals(sample("payload.bin"))).toBe(true);
        const region = payloadRegion(fx.path, t.format);
        if (t.width) expect(region.width).toBe(t.width);
        expectInside(c.modules, region);
      } finally {
        c.close();
      }
    });
  }
});

describe("loader numbering (jsonc inserted at 7 in 1.2.5)", () => {
  // A fake `.node` file is embedded with the napi loader: 9 in the old enum, 10 in the new one.
  for (const version of ["1.2.4", "1.2.5", undefined]) {
    it(`${version ?? "1.4 (devDependency)"}: the .node file is napi`, () => {
      const fx = buildBun({ version, entries: ["native.js"], name: "native" });
      const c = open(fx.path);
      try {
        const addon = byName(c, /\/addon-[a-z0-9]+\.node$/);
        expect([addon.kind, addon.loader]).toEqual(["native-addon", "napi"]);
        expect(addon.extra?.loaderId).toBe(version === "1.2.4" ? 9 : 10);
        expect(c.read(addon).equals(sample("addon.node"))).toBe(true);
        expect(c.text(byName(c, /\/native$/))).toContain('"SEARCHLIFT_NATIVE_MARKER"');
      } finally {
        c.close();
      }
    });
  }
});
