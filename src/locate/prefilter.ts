import type { Container, ModuleEntry } from "../container/types.js";
import { markerBytes, type Signature, type Variant } from "./signature.js";

/**
 * Byte-level prefilter: which JS modules can hold which signature. Markers are ASCII source text,
 * so a latin1 or utf8 module is searched as bytes and a utf16le module with the marker encoded to
 * match; nothing is decoded or parsed here.
 *
 * A program has thousands of modules and the signatures dozens of markers, so each module's
 * conditions are evaluated lazily and short-circuited, with markers that have been rare so far
 * tried first: most modules are ruled out by one search.
 */
export class MarkerIndex {
  /** Modules that may hold each variant (all markers of its signature and its own). */
  readonly candidates = new Map<Variant, ModuleEntry[]>();
  /** Occurrences in the whole program of the markers that declare a `max`. */
  readonly counts = new Map<string, number>();

  constructor(container: Container, signatures: Signature[]) {
    const needles = new Map<string, { latin1: Buffer; utf16: Buffer; tried: number; hits: number }>();
    const needle = (t: string) => {
      let n = needles.get(t);
      if (!n) needles.set(t, (n = { latin1: Buffer.from(t, "latin1"), utf16: Buffer.from(t, "utf16le"), tried: 0, hits: 0 }));
      return n;
    };
    const plan = signatures.map((s) => ({
      common: s.markers.map((m) => markerBytes(m)),
      variants: s.variants.map((v) => ({ v, markers: v.markers.map((m) => markerBytes(m)) })),
    }));
    for (const p of plan) {
      for (const { v, markers } of p.variants) this.candidates.set(v, []);
      for (const t of [...p.common, ...p.variants.flatMap((v) => v.markers)]) needle(t);
    }
    const withMax = signatures.flatMap((s) => [...s.markers, ...s.variants.flatMap((v) => v.markers)]).filter((m) => m.max !== undefined);
    const counted = [...new Set(withMax.map(markerBytes))];
    for (const t of counted) this.counts.set(t, 0);
    // Rarest first: hit rate so far, with a prior that favours long markers.
    const rate = (t: string) => {
      const n = needles.get(t)!;
      return (n.hits + 1) / (n.tried + 2) - t.length / 1e4;
    };

    for (const m of container.modules) {
      if (m.kind !== "js") continue;
      const bytes = container.read(m);
      const seen = new Map<string, boolean>();
      const has = (t: string): boolean => {
        let r = seen.get(t);
        if (r === undefined) {
          const n = needles.get(t)!;
          r = bytes.indexOf(m.encoding === "utf16le" ? n.utf16 : n.latin1) !== -1;
          n.tried++;
          if (r) n.hits++;
          seen.set(t, r);
        }
        return r;
      };
      const all = (ts: string[]) => [...ts].sort((a, b) => rate(a) - rate(b)).every(has);
      for (const p of plan) {
        if (!all(p.common)) continue;
        for (const { v, markers } of p.variants) if (all(markers)) this.candidates.get(v)!.push(m);
      }
      for (const t of counted) {
        const n = needles.get(t)!.latin1;
        const pat = m.encoding === "utf16le" ? Buffer.from(t, "utf16le") : n;
        let c = 0;
        for (let at = bytes.indexOf(pat); at !== -1; at = bytes.indexOf(pat, at + pat.length)) c++;
        this.counts.set(t, this.counts.get(t)! + c);
      }
    }
  }
}
