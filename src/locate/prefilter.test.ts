import { describe, expect, it } from "vitest";
import type { Container, Encoding, ModuleEntry } from "../extract/types.js";
import { MarkerIndex } from "./prefilter.js";
import { compileSignature, type Signature } from "./signature.js";

/** A container over one buffer: modules at the given places, the bytes between them filler. */
function container(parts: Array<{ text: string; encoding?: Encoding; gap?: number; kind?: "js" | "asset" }>): Container {
  const chunks: Buffer[] = [];
  let at = 0;
  const modules: ModuleEntry[] = parts.map((p, i) => {
    const gap = Buffer.alloc(p.gap ?? 0, 0x20);
    const bytes = Buffer.from(p.text, p.encoding === "utf16le" ? "utf16le" : p.encoding === "utf8" ? "utf8" : "latin1");
    chunks.push(gap, bytes);
    at += gap.length;
    const m: ModuleEntry = {
      path: `m${i}.js`,
      kind: p.kind ?? "js",
      loader: "js",
      moduleFormat: "esm",
      encoding: p.encoding ?? "latin1",
      size: bytes.length,
      bytecode: false,
      start: at,
      end: at + bytes.length,
    };
    at += bytes.length;
    return m;
  });
  const all = Buffer.concat(chunks);
  return {
    input: "memory",
    file: "memory",
    format: "bun-elf",
    runtime: null,
    entry: null,
    modules,
    notes: [],
    read: (m) => Buffer.from(all.subarray(m.start, m.end)),
    readRange: (start, length, into) => (all.copy(into, 0, start, start + length), into.subarray(0, length)),
    text: (m) => all.subarray(m.start, m.end).toString(m.encoding === "utf16le" ? "utf16le" : "latin1"),
    close: () => {},
  };
}

function signature(markers: string[], variantMarkers: string[]): Signature {
  return compileSignature({
    id: "t/sig",
    summary: "test",
    markers: markers.map((text) => ({ text })),
    variants: [{ name: "v", anchor: "function $F() { $$$ }", markers: variantMarkers.map((text) => ({ text })) }],
    roles: {},
  });
}

/** What the prefilter must answer, by searching each module on its own. */
function naiveCount(c: Container, m: ModuleEntry, text: string): number {
  const bytes = c.read(m);
  const needle = Buffer.from(text, m.encoding === "utf16le" ? "utf16le" : "latin1");
  let n = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) n++;
  return n;
}

function random(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe("MarkerIndex", () => {
  it("finds markers that straddle read windows, and none that straddle two modules", () => {
    // "max_results" split across modules 0|1 must not count; the one in module 2 crosses a 24-byte window.
    const c = container([{ text: "aaaaaaaaaaaaaaaaaaaamax_" }, { text: "results bbbbbbbb" }, { text: "ccccccccccccccmax_resultsddd" }]);
    const idx = new MarkerIndex(c, 24);
    expect(idx.count("max_results")).toBe(1);
    expect(idx.candidates(signature(["max_results"], []), signature([], []).variants[0]!).map((m) => m.path)).toEqual(["m2.js"]);
  });

  it("agrees with a module-by-module search on random programs", () => {
    const words = [
      "max_results",
      "max_",
      "results",
      ".score",
      ".toLowerCase",
      "select:",
      "aa",
      "a",
      "x",
      "ToolSearch",
      "N",
      "\u00e9",
      "  ",
      ";",
    ];
    const markers = ["max_results", ".score", "ToolSearch", "aa", "select:", "x_r", "é"];
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
      const parts = Array.from({ length: 1 + Math.floor(r() * 8) }, () => ({
        text: Array.from({ length: Math.floor(r() * 30) }, () => pick(words)).join(""),
        encoding: pick<Encoding>(["latin1", "latin1", "latin1", "utf8", "utf16le"]),
        gap: pick([0, 0, 1, 3, 70 << 10]),
        kind: pick<"js" | "asset">(["js", "js", "js", "asset"]),
      }));
      const c = container(parts);
      const js = c.modules.filter((m) => m.kind === "js");
      const idx = new MarkerIndex(c, 16 + Math.floor(r() * 64));
      const sigMarkers = markers.filter(() => r() < 0.3);
      const vMarkers = markers.filter(() => r() < 0.2);
      const sig = signature(sigMarkers, vMarkers);
      if (r() < 0.5) idx.prepare([sig]);
      const want = js.filter((m) => [...sigMarkers, ...vMarkers].every((t) => naiveCount(c, m, t) > 0)).map((m) => m.path);
      expect({ seed, got: idx.candidates(sig, sig.variants[0]!).map((m) => m.path) }).toEqual({ seed, got: want });
      for (const t of markers) {
        const total = js.reduce((s, m) => s + naiveCount(c, m, t), 0);
        expect({ seed, t, n: idx.count(t) }).toEqual({ seed, t, n: total });
      }
    }
  });

  it("searches overlapping modules one by one", () => {
    const c = container([{ text: "one max_results" }, { text: "two" }]);
    c.modules[1]!.start = c.modules[0]!.start + 4; // m1 now overlaps m0: "max_results"'s first bytes
    c.modules[1]!.end = c.modules[0]!.end;
    const idx = new MarkerIndex(c, 16);
    expect(idx.count("max_results")).toBe(2);
    expect(idx.candidates(signature(["results"], []), signature([], []).variants[0]!).map((m) => m.path)).toEqual(["m0.js", "m1.js"]);
  });
});
