import type { Container, ModuleEntry } from "../container/types.js";
import { markerBytes, type Marker } from "./signature.js";

/**
 * Byte-level prefilter: which JS modules hold which markers. Markers are ASCII source text, so a
 * latin1 or utf8 module is searched as bytes and a utf16le module with the marker encoded to match;
 * nothing is decoded or parsed here.
 */
export class MarkerIndex {
  /** marker text → modules that contain it */
  private hits = new Map<string, Set<ModuleEntry>>();
  /** marker text → occurrences in the whole program */
  readonly counts = new Map<string, number>();

  constructor(container: Container, markers: Marker[], countAll: Set<string>) {
    const texts = [...new Set(markers.map(markerBytes))];
    const needles = texts.map((t) => ({ t, latin1: Buffer.from(t, "latin1"), utf16: Buffer.from(t, "utf16le") }));
    for (const t of texts) {
      this.hits.set(t, new Set());
      this.counts.set(t, 0);
    }
    for (const m of container.modules) {
      if (m.kind !== "js") continue;
      const bytes = container.read(m);
      for (const n of needles) {
        const needle = m.encoding === "utf16le" ? n.utf16 : n.latin1;
        let at = bytes.indexOf(needle);
        if (at === -1) continue;
        this.hits.get(n.t)!.add(m);
        if (!countAll.has(n.t)) continue;
        let c = 0;
        for (; at !== -1; at = bytes.indexOf(needle, at + needle.length)) c++;
        this.counts.set(n.t, this.counts.get(n.t)! + c);
      }
    }
  }

  /** Modules holding every one of `markers`. */
  modulesWithAll(markers: Marker[], among: readonly ModuleEntry[]): ModuleEntry[] {
    return among.filter((m) => markers.every((k) => this.hits.get(markerBytes(k))?.has(m)));
  }
}
