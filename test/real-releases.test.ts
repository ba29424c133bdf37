/**
 * Real Claude Code releases from the npm registry (downloaded once into the cache outside the
 * repository; nothing from them is committed). The expected figures are facts about those files,
 * established independently of this code (see docs/container-formats.md §1.6).
 */
import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import { openContainer } from "../src/index.js";
import type { Container, ModuleEntry } from "../src/index.js";
import { readElf } from "../src/extract/elf.js";
import { readMacho } from "../src/extract/macho.js";
import { readPe } from "../src/extract/pe.js";
import { FileByteSource } from "../src/extract/byte-source.js";
import { npmPack, npmPackMember } from "./helpers/cache.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";

function withContainer<T>(path: string, f: (c: Container) => T): T {
  const c = openContainer(path);
  try {
    return f(c);
  } finally {
    c.close();
  }
}

/** JS text parses: ESM chunks as modules, CJS wrappers and scripts as scripts. */
function parses(text: string): boolean {
  for (const sourceType of ["module", "script"] as const) {
    try {
      parse(text, { ecmaVersion: "latest", sourceType, allowHashBang: true, allowReturnOutsideFunction: sourceType === "script" });
      return true;
    } catch {
      /* try the other */
    }
  }
  return false;
}

/** Every 97th JS module and the entry: decoded text must parse. */
function sampleParses(c: Container): { sampled: number; failed: string[] } {
  const js = c.modules.filter((m) => m.kind === "js");
  const pick = js.filter((m, i) => i % 97 === 0 || m.path === c.entry);
  const failed = pick.filter((m) => !parses(c.text(m))).map((m) => m.path);
  return { sampled: pick.length, failed };
}

function countBy(mods: ModuleEntry[], key: (m: ModuleEntry) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of mods) out[key(m)] = (out[key(m)] ?? 0) + 1;
  return out;
}

/** Every module lies inside [lo, hi) and no two contents overlap. */
function expectInside(mods: ModuleEntry[], lo: number, hi: number): void {
  const sorted = [...mods].filter((m) => m.size > 0).sort((a, b) => a.start - b.start);
  for (const m of sorted) {
    expect(m.start).toBeGreaterThanOrEqual(lo);
    expect(m.end).toBeLessThanOrEqual(hi);
    expect(m.end - m.start).toBe(m.size);
  }
  for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end);
}

describe.skipIf(skip)("real releases: cli.js era", () => {
  for (const version of ["2.0.70", "2.1.112"]) {
    it(`@anthropic-ai/claude-code@${version} .tgz and folder give cli.js`, () => {
      const spec = `@anthropic-ai/claude-code@${version}`;
      const tgz = npmPack(spec);
      const dir = npmPackMember(spec, "package");
      for (const input of [tgz, dir]) {
        withContainer(input, (c) => {
          expect(c.format).toBe("npm-package");
          expect(c.modules).toHaveLength(1);
          const [m] = c.modules;
          expect(m!.path).toMatch(/cli\.js$/);
          expect(m!.kind).toBe("js");
          expect(m!.moduleFormat).toBe("esm");
          expect(m!.size).toBeGreaterThan(5_000_000);
          const text = c.text(m!);
          expect(text.startsWith("#!/usr/bin/env node")).toBe(true);
          expect(parses(text)).toBe(true);
        });
      }
    });
  }

  it("the 2.1.113 wrapper package names the platform package that holds the program", () => {
    const tgz = npmPack("@anthropic-ai/claude-code@2.1.113");
    expect(() => openContainer(tgz)).toThrow(/@anthropic-ai\/claude-code-(linux|darwin|win32)-[a-z0-9-]+@2\.1\.113/);
  });
});

describe.skipIf(skip)("real releases: Bun executables", () => {
  it("linux-x64@2.1.124: one CJS bundle with bytecode, two native addons", () => {
    const file = npmPackMember("@anthropic-ai/claude-code-linux-x64@2.1.124", "package/claude");
    withContainer(file, (c) => {
      expect(c.format).toBe("bun-elf");
      expect(c.runtime).toBe("Bun v1.3.14");
      expect(c.entry).toBe("/$bunfs/root/src/entrypoints/cli.js");
      expect(c.modules.map((m) => m.path)).toEqual([
        "/$bunfs/root/src/entrypoints/cli.js",
        "/$bunfs/root/image-processor.js",
        "/$bunfs/root/audio-capture.js",
        "/$bunfs/root/image-processor.node",
        "/$bunfs/root/audio-capture.node",
      ]);
      const [entry] = c.modules;
      expect(entry!.size).toBe(13981018);
      expect(entry!.bytecode).toBe(true);
      expect(entry!.moduleFormat).toBe("cjs");
      expect(c.modules.slice(3).map((m) => m.kind)).toEqual(["native-addon", "native-addon"]);
      expect(parses(c.text(entry!))).toBe(true);
      // The payload is where the ELF's own .bun section header points: [u64 length][payload].
      const src = new FileByteSource(file);
      try {
        const bun = readElf(src).sections.find((s) => s.name === ".bun")!;
        const len = Number(src.read(bun.offset, 8).readBigUInt64LE());
        expectInside(c.modules, bun.offset + 8, bun.offset + 8 + len);
      } finally {
        src.close();
      }
    });
  });

  it("linux-x64@2.1.332: 3914 modules, code-split ESM chunks, entry /$bunfs/root/cli", () => {
    const file = npmPackMember("@anthropic-ai/claude-code-linux-x64@2.1.332", "package/claude");
    withContainer(file, (c) => {
      expect(c.format).toBe("bun-elf");
      expect(c.runtime).toBe("Bun v1.4.6");
      expect(c.entry).toBe("/$bunfs/root/cli");
      expect(c.modules).toHaveLength(3914);
      expect(c.modules[7]!.path).toBe("/$bunfs/root/cli");
      expect(countBy(c.modules, (m) => m.loader)).toMatchObject({ js: 3665, text: 108, file: 139, napi: 2 });
      expect(countBy(c.modules, (m) => m.encoding).utf16le).toBe(12);
      const js = c.modules.filter((m) => m.kind === "js");
      expect(js.every((m) => m.moduleFormat === "esm")).toBe(true);
      expect(js.filter((m) => m.bytecode)).toHaveLength(3663);
      expect(c.modules.filter((m) => m.path.startsWith("/$bunfs/root/chunk-")).length).toBeGreaterThan(3000);
      const { sampled, failed } = sampleParses(c);
      expect(sampled).toBeGreaterThan(30);
      expect(failed).toEqual([]);
      // .bun at sh_offset 0x9e9c000 holding [u64 235953905][payload].
      const src = new FileByteSource(file);
      try {
        const bun = readElf(src).sections.find((s) => s.name === ".bun")!;
        expect(bun.offset).toBe(0x9e9c000);
        expect(Number(src.read(bun.offset, 8).readBigUInt64LE())).toBe(235953905);
        expectInside(c.modules, bun.offset + 8, bun.offset + 8 + 235953905);
      } finally {
        src.close();
      }
    });
  });

  it("darwin-arm64@2.1.332: Mach-O __BUN,__bun, 3934 modules", () => {
    const file = npmPackMember("@anthropic-ai/claude-code-darwin-arm64@2.1.332", "package/claude");
    withContainer(file, (c) => {
      expect(c.format).toBe("bun-macho");
      expect(c.runtime).toBe("Bun v1.4.6");
      expect(c.entry).toBe("/$bunfs/root/cli");
      expect(c.modules).toHaveLength(3934);
      expect(sampleParses(c).failed).toEqual([]);
      const src = new FileByteSource(file);
      try {
        const [slice] = readMacho(src);
        const seg = slice!.segments.find((s) => s.segname === "__BUN")!;
        expect(seg.fileoff).toBe(0x8724000);
        expect(Number(src.read(seg.fileoff, 8).readBigUInt64LE())).toBe(240962725);
        expectInside(c.modules, seg.fileoff + 8, seg.fileoff + 8 + 240962725);
      } finally {
        src.close();
      }
    });
  });

  it("win32-x64@2.1.332: PE .bun before the Authenticode certificate, 3912 modules under B:/~BUN/root/", () => {
    const file = npmPackMember("@anthropic-ai/claude-code-win32-x64@2.1.332", "package/claude.exe");
    withContainer(file, (c) => {
      expect(c.format).toBe("bun-pe");
      expect(c.runtime).toBe("Bun v1.4.6");
      expect(c.entry).toBe("B:/~BUN/root/cli");
      expect(c.modules).toHaveLength(3912);
      expect(c.modules.every((m) => m.path.startsWith("B:/~BUN/root/"))).toBe(true);
      expect(sampleParses(c).failed).toEqual([]);
      const src = new FileByteSource(file);
      try {
        const bun = readPe(src).sections.find((s) => s.name === ".bun")!;
        expect(bun.pointerToRawData).toBe(168168448);
        expect(Number(src.read(bun.pointerToRawData, 8).readBigUInt64LE())).toBe(234904057);
        expectInside(c.modules, bun.pointerToRawData + 8, bun.pointerToRawData + 8 + 234904057);
      } finally {
        src.close();
      }
    });
  });

  it("the platform package .tgz opens to the same modules as its binary", () => {
    const spec = "@anthropic-ai/claude-code-linux-x64@2.1.124";
    const fromTgz = withContainer(npmPack(spec), (c) => c.modules.map((m) => [m.path, m.size, m.start]));
    const fromBin = withContainer(npmPackMember(spec, "package/claude"), (c) => c.modules.map((m) => [m.path, m.size, m.start]));
    expect(fromTgz).toEqual(fromBin);
  });
});
