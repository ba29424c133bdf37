import type { Container, ModuleEntry } from "../container/types.js";
import { markerBytes, type Signature, type Variant } from "./signature.js";

/**
 * Byte-level prefilter: which JS modules can hold which variant of a signature. Markers are ASCII
 * source text, so a latin1 or utf8 module is searched as bytes and a utf16le module with the marker
 * encoded to match; nothing is decoded or parsed here.
 *
 * Work is done on demand: locate asks variant by variant and stops at the first that matches, so
 * the markers of older variants are usually never searched. Each module is read once, each
 * (module, marker) pair searched once, and markers that have been rare so far are tried first —
 * an absent marker costs a full scan of the module, so the one most likely absent rules it out.
 */
export class MarkerIndex {
  private readonly js: ModuleEntry[];
  private readonly bytes = new Map<ModuleEntry, Buffer>();
  private readonly found = new Map<ModuleEntry, Map<string, boolean>>();
  private readonly stats = new Map<string, { tried: number; hits: number }>();
  private readonly counted = new Map<string, number>();

  constructor(private readonly container: Container) {
    this.js = container.modules.filter((m) => m.kind === "js");
  }

  /** Modules holding every marker of the signature and of the variant. */
  candidates(sig: Signature, v: Variant): ModuleEntry[] {
    const rate = (t: string) => {
      const s = this.stats.get(t);
      return ((s?.hits ?? 0) + 1) / ((s?.tried ?? 0) + 2) - t.length / 1e4;
    };
    const markers = [...new Set([...sig.markers, ...v.markers].map(markerBytes))].sort((a, b) => rate(a) - rate(b));
    return this.js.filter((m) => markers.every((t) => this.has(m, t)));
  }

  /** Occurrences of a marker in the whole program. */
  count(text: string): number {
    let total = this.counted.get(text);
    if (total === undefined) {
      total = 0;
      for (const m of this.js) {
        const needle = this.needle(text, m);
        const bytes = this.read(m);
        for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) total++;
      }
      this.counted.set(text, total);
    }
    return total;
  }

  private has(m: ModuleEntry, text: string): boolean {
    let seen = this.found.get(m);
    if (!seen) this.found.set(m, (seen = new Map()));
    let r = seen.get(text);
    if (r === undefined) {
      r = this.read(m).indexOf(this.needle(text, m)) !== -1;
      seen.set(text, r);
      const s = this.stats.get(text) ?? { tried: 0, hits: 0 };
      s.tried++;
      if (r) s.hits++;
      this.stats.set(text, s);
    }
    return r;
  }

  private readonly needles = new Map<string, Buffer>();
  private needle(text: string, m: ModuleEntry): Buffer {
    const key = m.encoding === "utf16le" ? `w${text}` : `b${text}`;
    let n = this.needles.get(key);
    if (!n) this.needles.set(key, (n = Buffer.from(text, m.encoding === "utf16le" ? "utf16le" : "latin1")));
    return n;
  }

  private read(m: ModuleEntry): Buffer {
    let b = this.bytes.get(m);
    if (!b) this.bytes.set(m, (b = this.container.read(m)));
    return b;
  }
}
