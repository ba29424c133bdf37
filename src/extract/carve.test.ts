import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { noise } from "../../test/helpers/noise.js";
import { ExitCode, UnrecognizedInput } from "../errors.js";
import { BufferByteSource, FileByteSource } from "./byte-source.js";
import { carveScripts } from "./carve.js";
import { openContainer } from "./open-container.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-carve-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROGRAM_A = Buffer.from(
  [
    'import { readFileSync } from "node:fs";',
    "export function searchTools(query, tools) {",
    "  const q = query.toLowerCase();",
    "  return tools.filter((t) => t.name.toLowerCase().includes(q) || t.description.toLowerCase().includes(q));",
    "}",
    "const cfg = JSON.parse(readFileSync(new URL('./cfg.json', import.meta.url), 'utf8'));",
    "export default { searchTools, cfg, note: 'café ☕' };",
  ].join("\n"),
);
const PROGRAM_B = Buffer.from(
  [
    "var scores = {};",
    "function rank(items) {",
    "  for (var i = 0; i < items.length; i++) { scores[items[i]] = (scores[items[i]] || 0) + items.length - i; }",
    "  return Object.keys(scores).sort(function (a, b) { return scores[b] - scores[a]; });",
    "}",
    "module.exports = { rank: rank, version: '1.0.0', description: 'ranks tool names by position across lists' };",
  ].join("\n"),
);
/** Printable, long, and not JavaScript: prose. */
const DECOY = Buffer.from(
  "This is the licence text of a library linked into the binary. It is printable and long enough to be carved, " +
    "but it is English prose, not a program: words follow words without operators, so no JavaScript parser accepts it. " +
    "Permission is hereby granted, free of charge, to any person obtaining a copy of this software.",
);
/** Printable and parses (identifier expressions, one per line), but is not a program: a word list. */
const WORDLIST = Buffer.from(Array.from({ length: 80 }, (_, i) => `word${i}`).join("\n"));

/** Layout: noise, NUL, A, NUL, noise, NUL, decoy, NUL, noise, NUL, B, NUL, noise — C strings, as packers store text. */
function sample(): { bytes: Buffer; a: [number, number]; b: [number, number] } {
  const parts: Buffer[] = [];
  let off = 0;
  const put = (b: Buffer) => {
    parts.push(b);
    off += b.length;
    return off - b.length;
  };
  const nul = Buffer.from([0]);
  put(noise(100_000, 1));
  put(nul);
  const a0 = put(PROGRAM_A);
  put(nul);
  put(noise(50_000, 2));
  put(nul);
  put(DECOY);
  put(nul);
  put(WORDLIST);
  put(nul);
  put(noise(70_000, 3));
  put(nul);
  const b0 = put(PROGRAM_B);
  put(nul);
  put(noise(30_000, 4));
  return { bytes: Buffer.concat(parts), a: [a0, a0 + PROGRAM_A.length], b: [b0, b0 + PROGRAM_B.length] };
}

describe("carveScripts", () => {
  it("finds exactly the two embedded programs, with exact byte ranges, and not the decoys", () => {
    const { bytes, a, b } = sample();
    const c = carveScripts(new BufferByteSource("mem", bytes), "mem");
    expect(c.format).toBe("carved");
    expect(c.modules.map((m) => [m.start, m.end])).toEqual([a, b]);
    const [ma, mb] = c.modules;
    expect(ma!.path).toBe(`carved:${a[0]}-${a[1]}`);
    expect(ma!.loader).toBe("carved");
    expect(ma!.kind).toBe("js");
    expect(ma!.encoding).toBe("utf8");
    expect(ma!.moduleFormat).toBe("esm");
    expect(mb!.moduleFormat).toBe("cjs");
    expect(ma!.size).toBe(PROGRAM_A.length);
    expect(c.read(ma!).equals(PROGRAM_A)).toBe(true);
    expect(c.text(ma!)).toBe(PROGRAM_A.toString("utf8"));
    expect(c.text(mb!)).toBe(PROGRAM_B.toString("utf8"));
  });

  it("carves the same from a file across chunk boundaries (program straddling the 4 MiB chunk edge)", () => {
    const CH = 4 * 1024 * 1024;
    const start = CH - 100;
    const bytes = Buffer.concat([noise(start - 1, 7), Buffer.from([0]), PROGRAM_B, Buffer.from([0]), noise(5000, 8)]);
    const file = join(dir, "straddle.bin");
    writeFileSync(file, bytes);
    const src = new FileByteSource(file);
    const c = carveScripts(src, file);
    expect(c.modules.map((m) => [m.start, m.end])).toEqual([[start, start + PROGRAM_B.length]]);
    c.close();
  });

  it("trims text glued to the tail of a program, and latin1 is recorded when bytes are not UTF-8", () => {
    const latin = Buffer.concat([Buffer.from("var s = '"), Buffer.from([0xe9, 0xe8]), Buffer.from("';\n"), PROGRAM_B]);
    const glued = Buffer.concat([latin, Buffer.from("\nThis trailing sentence is not code at all and has no semicolons")]);
    const bytes = Buffer.concat([noise(1000, 9), Buffer.from([0]), glued, Buffer.from([0]), noise(1000, 10)]);
    const c = carveScripts(new BufferByteSource("mem", bytes), "mem");
    expect(c.modules).toHaveLength(1);
    const m = c.modules[0]!;
    expect(m.encoding).toBe("latin1");
    expect(m.start).toBe(1001);
    expect(m.end).toBe(1001 + latin.length + 1); // through the newline before the prose
    expect(c.text(m).startsWith("var s = 'éè';")).toBe(true);
  });

  it("drops junk glued to the head of a program on the same line", () => {
    const junk = Buffer.from("xQ#%&?@");
    const bytes = Buffer.concat([noise(1000, 21), Buffer.from([0]), junk, PROGRAM_B, Buffer.from([0]), noise(1000, 22)]);
    const c = carveScripts(new BufferByteSource("mem", bytes), "mem");
    expect(c.modules.map((m) => [m.start, m.end])).toEqual([[1001 + junk.length, 1001 + junk.length + PROGRAM_B.length]]);
  });

  it("throws UnrecognizedInput with the exact message when nothing parses", () => {
    const bytes = Buffer.concat([noise(20_000, 11), Buffer.from([0]), DECOY, Buffer.from([0]), noise(20_000, 12)]);
    let err: unknown;
    try {
      carveScripts(new BufferByteSource("mem", bytes), "mem");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnrecognizedInput);
    expect((err as UnrecognizedInput).exitCode).toBe(ExitCode.unrecognized);
    expect((err as Error).message).toBe("no JavaScript found (not a known container, and no text that parses as JavaScript)");
  });

  it("names UPX, nexe, pkg and deno when their markers are present", () => {
    const upx = Buffer.concat([Buffer.from("\x7fELF"), noise(200, 13), Buffer.from("UPX!"), noise(20_000, 14)]);
    expect(() => carveScripts(new BufferByteSource("u", upx), "u")).toThrow(/UPX-packed: unpack it first/);
    const nexe = Buffer.concat([noise(20_000, 15), Buffer.from("<nexe~~sentinel>"), Buffer.alloc(16)]);
    expect(() => carveScripts(new BufferByteSource("n", nexe), "n")).toThrow(/nexe/);
    const deno = Buffer.concat([noise(20_000, 16), Buffer.from("d3n0l4nd"), noise(100, 17)]);
    expect(() => carveScripts(new BufferByteSource("d", deno), "d")).toThrow(/deno compile/);
    // A pkg binary with a carvable prelude: the JS is found and the packer named in a note.
    const pkg = Buffer.concat([
      noise(5000, 18),
      Buffer.from("\0const PAYLOAD_POSITION = '98521312              ' | 0;\0"),
      Buffer.from([0]),
      PROGRAM_B,
      Buffer.from([0]),
    ]);
    const c = carveScripts(new BufferByteSource("p", pkg), "p");
    expect(c.modules).toHaveLength(1);
    expect(c.notes.some((n) => /pkg/.test(n))).toBe(true);
  });

  it("is the fallback of openContainer for an unknown binary", () => {
    const { bytes, a } = sample();
    const file = join(dir, "unknown.bin");
    writeFileSync(file, bytes);
    const c = openContainer(file);
    expect(c.format).toBe("carved");
    expect(c.modules[0]!.start).toBe(a[0]);
    c.close();
  });

  it("carves a 12 MB input in reasonable time", async ({ annotate }) => {
    const { bytes } = sample();
    const big = Buffer.concat([noise(12 * 1024 * 1024, 19), bytes]);
    const file = join(dir, "big.bin");
    writeFileSync(file, big);
    const t = performance.now();
    const c = carveScripts(new FileByteSource(file), file);
    const ms = performance.now() - t;
    expect(c.modules).toHaveLength(2);
    c.close();
    await annotate(`carve of ${big.length} bytes: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(10_000);
  });
});
