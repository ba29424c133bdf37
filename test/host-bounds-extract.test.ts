/**
 * `extract --list` and `lift` on Bun payloads of hundreds of thousands of module records finish or refuse on one
 * line (exit 5), in bounded memory, and never exit 1. The amplifications a small file can ask for are refused:
 * records that share one long name (a 20 MB file naming 1.6 GB), records that share one range of contents (each
 * module's text is decoded on its own), and more records than searchlift reads; what is read is listed a piece
 * at a time. Each CLI run reports its peak resident memory (test/helpers/cli-rusage.mjs).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, type TestContext } from "vitest";
import { ExitCode } from "../src/errors.js";
import { listing, listingJson } from "../src/extract/listing.js";
import { jsLiteral } from "../src/safe-text.js";
import { MAX_MODULES, MAX_NAME_BYTES, MAX_SHARED_CONTENTS } from "../src/extract/bun-payload.js";
import { memoryContainer } from "./helpers/memory-container.js";
import { runCli } from "./helpers/cli.js";

const work = mkdtempSync(join(tmpdir(), "searchlift-host-bounds-extract-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TRAILER = Buffer.from("\n---- Bun! ----\n", "latin1");
const RECORD = 52;

/**
 * A legacy Bun payload of `count` 52-byte records: record i named `name(i)` (a string, or a number: the index of
 * an earlier record whose name it shares) with contents `contents(i)` (likewise). Laid out as craftBunLegacy does.
 */
function craft(file: string, count: number, name: (i: number) => string | number, contents: (i: number) => string | number): string {
  const parts: Buffer[] = [];
  let at = 0;
  const put = (b: Buffer) => {
    parts.push(b);
    at += b.length;
    return [at - b.length, b.length] as const;
  };
  const table = Buffer.alloc(RECORD * count);
  for (let i = 0; i < count; i++) {
    const n = name(i);
    const c = contents(i);
    const [nOff, nLen] = typeof n === "number" ? [table.readUInt32LE(n * RECORD), table.readUInt32LE(n * RECORD + 4)] : put(Buffer.from(n));
    const [cOff, cLen] =
      typeof c === "number" ? [table.readUInt32LE(c * RECORD + 8), table.readUInt32LE(c * RECORD + 12)] : put(Buffer.from(c));
    table.writeUInt32LE(nOff, i * RECORD);
    table.writeUInt32LE(nLen, i * RECORD + 4);
    table.writeUInt32LE(cOff, i * RECORD + 8);
    table.writeUInt32LE(cLen, i * RECORD + 12);
    table[i * RECORD + 49] = 1; // loader: js
    table[i * RECORD + 50] = 1; // format: esm
  }
  const [tOff, tLen] = put(table);
  const offsets = Buffer.alloc(32);
  offsets.writeBigUInt64LE(BigInt(at), 0);
  offsets.writeUInt32LE(tOff, 8);
  offsets.writeUInt32LE(tLen, 12);
  const out = Buffer.concat([Buffer.alloc(4096, 0x90), ...parts, offsets, TRAILER, Buffer.alloc(8)]);
  out.writeBigUInt64LE(BigInt(out.length), out.length - 8);
  writeFileSync(file, out);
  return file;
}

/** The CLI as a process: its exit code, output, and peak resident memory in MB, which the test's annotation says. */
async function cli(annotate: TestContext["annotate"], ...args: string[]) {
  const r = runCli(args, { timeout: 300_000, peakRss: true });
  const peakMb = Math.round(r.peakRssMb!);
  await annotate(`${args.slice(0, 2).join(" ")} ${args.slice(2).join(" ")}: exit ${r.code}, peak ${peakMb} MB`);
  return { ...r, peakMb };
}

const LONG = "/$bunfs/root/" + "n".repeat(4096 - 16) + ".js";
const BOUND_MB = 400;

describe("Bun payloads with hundreds of thousands of records", () => {
  it("400,000 records sharing one 4 KB name (a 20 MB file): refused on one line (exit 5) by extract --list and lift", async ({
    annotate,
  }) => {
    const file = craft(
      join(work, "shared-name-400k"),
      400_000,
      (i) => (i === 0 ? LONG : 0),
      (i) => (i === 0 ? "export const a = 1;\n" : 0),
    );
    for (const args of [
      ["extract", file, "--list"],
      ["extract", file, "--list", "--json"],
      ["lift", file, "--no-verify", "--out", join(work, "o1")],
    ]) {
      const r = await cli(annotate, ...args);
      expect(r.code, r.stderr).toBe(ExitCode.malformed);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`holds over ${MAX_MODULES} modules, more than searchlift reads`);
      expect(r.peakMb).toBeLessThan(BOUND_MB);
    }
  });

  it("130,000 records sharing one 4 KB name (530 MB of names): refused (exit 5) for the names' total, not exit 1", async ({ annotate }) => {
    const file = craft(
      join(work, "shared-name-130k"),
      130_000,
      (i) => (i === 0 ? LONG : 0),
      (i) => (i === 0 ? "export const a = 1;\n" : 0),
    );
    for (const args of [
      ["extract", file, "--list"],
      ["lift", file, "--no-verify", "--out", join(work, "o2")],
    ]) {
      const r = await cli(annotate, ...args);
      expect(r.code, r.stderr).toBe(ExitCode.malformed);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`module names total ${130_000 * LONG.length} bytes (records share them), more than the ${MAX_NAME_BYTES}`);
      expect(r.peakMb).toBeLessThan(BOUND_MB);
    }
  });

  it("2,000 records sharing one 1 MB range of contents: refused (exit 5) before lift decodes 2 GB of text", async ({ annotate }) => {
    const body = "function f(a) { return a + 1; }\n".repeat(32 * 1024);
    const file = craft(
      join(work, "shared-contents"),
      2_000,
      (i) => `/$bunfs/root/m${i}.js`,
      (i) => (i === 0 ? body : 0),
    );
    const r = await cli(annotate, "lift", file, "--no-verify", "--out", join(work, "o3"));
    expect(r.code, r.stderr).toBe(ExitCode.malformed);
    expect(r.stderr).toMatch(new RegExp(`modules share over ${MAX_SHARED_CONTENTS} bytes of contents`));
    expect(r.peakMb).toBeLessThan(BOUND_MB);
  });

  it("250,000 records with their own 128-byte names (at both limits): listed whole, as text and JSON, in bounded memory", async ({
    annotate,
  }) => {
    const count = MAX_MODULES;
    const name = (i: number) => {
      const base = `/$bunfs/root/m${i}`;
      return base + "x".repeat(128 - base.length - 3) + ".js";
    };
    const file = craft(join(work, "own-names-250k"), count, name, (i) => (i === 0 ? "export const a = 1;\n" : 0));
    const text = await cli(annotate, "extract", file, "--list");
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines).toContain(`modules: ${count}`);
    expect(lines.filter((l) => l.startsWith("/$bunfs/root/m"))).toHaveLength(count);
    expect(text.peakMb).toBeLessThan(BOUND_MB);
    const json = await cli(annotate, "extract", file, "--list", "--json");
    expect(json.code, json.stderr).toBe(0);
    const l = JSON.parse(json.stdout) as { modules: Array<{ path: string }> };
    expect(l.modules).toHaveLength(count);
    expect(l.modules[count - 1]!.path).toBe(name(count - 1));
    expect(json.peakMb).toBeLessThan(BOUND_MB);
    const lifted = await cli(annotate, "lift", file, "--no-verify", "--out", join(work, "o4"));
    expect(lifted.code, lifted.stderr).toBe(ExitCode.notLiftable);
    expect(lifted.peakMb).toBeLessThan(BOUND_MB);
  });
});

describe("the listing in pieces", () => {
  it("listingJson's pieces are jsLiteral(listing, 2) to the character (JSON with line separators escaped)", () => {
    const c = memoryContainer({ "/$bunfs/root/a.js": "export const a = 1;\n", "/$bunfs/root/b\u00e9\u2028.js": "export const b = 2;\n" });
    c.modules[1]!.extra = { sourcemap: true, side: "server" };
    expect([...listingJson(c)].join("")).toBe(jsLiteral(listing(c), 2));
    expect([...listingJson(c)].join("")).toContain("b\u00e9\\u2028.js");
    const empty = { ...c, modules: [] };
    expect([...listingJson(empty)].join("")).toBe(jsLiteral(listing(empty), 2));
  });
});
