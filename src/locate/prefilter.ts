import type { Container, ModuleEntry } from "../extract/types.js";
import { sharedModuleText } from "./partial-parse.js";
import { markerBytes, type Signature, type Variant } from "./signature.js";

/**
 * Byte-level prefilter: which JS modules can hold which variant of a signature. Markers are ASCII
 * source text, so a latin1 or utf8 module is searched as bytes and a utf16le module with the marker
 * encoded to match; nothing is decoded or parsed here.
 *
 * A marker is searched through the whole program at once: the byte-encoded modules, which packers
 * lay side by side, are read window by window into one buffer and each hit is given to the module
 * around it — 3,600 modules cost one pass, not 3,600 reads and buffers. The search starts at the
 * marker's rarest byte (estimated from a sample of the program) and looks for a few bytes only:
 * Buffer.indexOf runs near memchr speed for a short needle whose first byte is rare (markers mostly
 * start with common ones, `.` or `m`), and slower, by Boyer-Moore, for a long one.
 * Of a variant's markers only the rarest is searched everywhere; the others only in the modules
 * that hold it. UTF-16 modules (rare) are searched one by one.
 */
export class MarkerIndex {
  private readonly js: ModuleEntry[];
  /** Byte-encoded JS modules in file order, and the runs of them read as one. */
  private readonly narrow: ModuleEntry[] = [];
  private readonly spans: Array<{ start: number; end: number }> = [];
  /** marker → how often it occurs in each narrow module that holds it (absent: not searched yet) */
  private readonly scanned = new Map<string, Map<ModuleEntry, number>>();
  /** Per-module answers for markers not searched everywhere. */
  private readonly found = new Map<ModuleEntry, Map<string, boolean>>();
  private readonly bytes = new Map<ModuleEntry, Buffer>();
  private freq: Float64Array | null = null;
  private window: Buffer | null = null;

  /** `windowSize`: bytes read at a time (tests make it small to put markers across windows). */
  constructor(
    private readonly container: Container,
    private readonly windowSize = WINDOW,
  ) {
    this.js = container.modules.filter((m) => m.kind === "js");
    const narrow = this.js.filter((m) => m.encoding !== "utf16le").sort((a, b) => a.start - b.start);
    // Modules that overlap (a carve could yield such) cannot share a pass: each is then searched alone.
    if (narrow.every((m, i) => i === 0 || m.start >= narrow[i - 1]!.end)) {
      this.narrow = narrow;
      for (const m of narrow) {
        const last = this.spans[this.spans.length - 1];
        if (last && m.start - last.end <= SPAN_GAP) last.end = m.end;
        else this.spans.push({ start: m.start, end: m.end });
      }
    }
  }

  /**
   * Search, in one pass, what locating these signatures will need first: the rarest marker of
   * each one's preferred variant, and every marker whose occurrences the signature limits.
   */
  prepare(signatures: Signature[]): void {
    const texts = new Set<string>();
    for (const sig of signatures) {
      const first = sig.variants[0];
      const all = [...sig.markers, ...(first?.markers ?? [])];
      const rarest = this.rarest(all.map(markerBytes));
      if (rarest !== null) texts.add(rarest);
      for (const m of all) if (m.max !== undefined) texts.add(markerBytes(m));
    }
    this.scan([...texts]);
  }

  /** Modules holding every marker of the signature and of the variant, in container order. */
  candidates(sig: Signature, v: Variant): ModuleEntry[] {
    const markers = [...new Set([...sig.markers, ...v.markers].map(markerBytes))];
    const keep = new Set<ModuleEntry>();
    if (this.narrow.length > 0) {
      let holders: ModuleEntry[] | null = null;
      const unscanned = markers.filter((t) => !this.scanned.has(t));
      const narrowBy = (t: string, holding: ModuleEntry[] | null) => {
        const of = this.scanned.get(t)!;
        return holding ? holding.filter((m) => of.has(m)) : [...of.keys()];
      };
      for (const t of markers) if (this.scanned.has(t)) holders = narrowBy(t, holders);
      // Search everywhere until few modules are left; the rest is checked module by module.
      while (unscanned.length > 0 && (holders === null || holders.length > FEW)) {
        const t = this.rarest(unscanned)!;
        unscanned.splice(unscanned.indexOf(t), 1);
        this.scan([t]);
        holders = narrowBy(t, holders);
      }
      for (const m of holders ?? this.narrow) if (unscanned.every((t) => this.holds(m, t))) keep.add(m);
    }
    for (const m of this.alone()) if (markers.every((t) => this.holds(m, t))) keep.add(m);
    return this.js.filter((m) => keep.has(m));
  }

  /**
   * Occurrences of a marker in one module's text, if the marker has been searched through the whole
   * program (and bytes and text agree on it, as in holds()).
   */
  countIn(m: ModuleEntry, text: string): number | undefined {
    const everywhere = this.narrow.length > 0 && sameInText(m, text) ? this.scanned.get(text) : undefined;
    return everywhere ? (everywhere.get(m) ?? 0) : undefined;
  }

  /** Occurrences of a marker in the whole program. */
  count(text: string): number {
    if (this.narrow.length > 0 && !this.scanned.has(text)) this.scan([text]);
    let total = 0;
    for (const n of this.scanned.get(text)?.values() ?? []) total += n;
    for (const m of this.alone()) {
      const needle = this.needle(text, m);
      const bytes = this.read(m);
      for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) total++;
    }
    return total;
  }

  /** Modules searched one by one: UTF-16 ones, or all of them when they cannot share a pass. */
  private alone(): ModuleEntry[] {
    return this.narrow.length > 0 ? this.js.filter((m) => m.encoding === "utf16le") : this.js;
  }

  private holds(m: ModuleEntry, text: string): boolean {
    const everywhere = m.encoding !== "utf16le" ? this.scanned.get(text) : undefined;
    if (everywhere && this.narrow.length > 0) return everywhere.has(m);
    let seen = this.found.get(m);
    if (!seen) this.found.set(m, (seen = new Map<string, boolean>()));
    let r = seen.get(text);
    if (r === undefined) {
      // A module that may hold the routine is searched in its text, which locate reads next anyway.
      r = sameInText(m, text) ? sharedModuleText(this.container, m).text.includes(text) : this.read(m).indexOf(this.needle(text, m)) !== -1;
      seen.set(text, r);
    }
    return r;
  }

  /** One pass over the byte-encoded modules for every text given. */
  private scan(texts: string[]): void {
    const todo = texts.filter((t) => !this.scanned.has(t));
    if (todo.length === 0 || this.narrow.length === 0) return;
    const needles = todo.map((text) => {
      const full = Buffer.from(text, "latin1");
      const k = this.rarestByte(full);
      return { full, k, tail: full.subarray(k, k + TAIL), counts: new Map<ModuleEntry, number>(), lastEnd: -1 };
    });
    const longest = Math.max(...needles.map((n) => n.full.length));
    const size = Math.max(this.windowSize, 2 * longest);
    if (!this.window || this.window.length < size) this.window = Buffer.allocUnsafe(size);
    const step = size - (longest - 1);
    for (const span of this.spans) {
      for (let s = span.start; s < span.end; s += step) {
        const len = Math.min(size, span.end - s);
        const b = this.container.readRange(s, len, this.window);
        // Occurrences starting before `owned` lie whole in this window; later ones in the next.
        const owned = s + len >= span.end ? len : step;
        for (const n of needles) {
          for (let p = b.indexOf(n.tail, n.k); p !== -1;) {
            const x = p - n.k;
            if (x >= owned) break;
            const whole =
              x + n.full.length <= b.length &&
              b.compare(n.full, 0, n.k, x, p) === 0 &&
              b.compare(n.full, n.k + n.tail.length, n.full.length, p + n.tail.length, x + n.full.length) === 0;
            if (s + x >= n.lastEnd && whole) {
              const m = this.moduleAt(s + x);
              // Counted like a search inside each module: whole, and not overlapping the last.
              if (m && s + x + n.full.length <= m.end) {
                n.counts.set(m, (n.counts.get(m) ?? 0) + 1);
                n.lastEnd = s + x + n.full.length;
                p = b.indexOf(n.tail, x + n.full.length + n.k);
                continue;
              }
            }
            p = b.indexOf(n.tail, p + 1);
          }
        }
        if (s + len >= span.end) break;
      }
    }
    todo.forEach((t, i) => this.scanned.set(t, needles[i]!.counts));
  }

  private moduleAt(pos: number): ModuleEntry | null {
    let lo = 0;
    let hi = this.narrow.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.narrow[mid]!.start <= pos) lo = mid;
      else hi = mid - 1;
    }
    const m = this.narrow[lo]!;
    return m.start <= pos && pos < m.end ? m : null;
  }

  /** The text expected to occur least, by the byte frequencies of a sample of the program. */
  private rarest(texts: string[]): string | null {
    const f = this.frequencies();
    const all = f.reduce((a, b) => a + b, 0);
    let best: string | null = null;
    let bestScore = Infinity;
    for (const t of texts) {
      let score = 0;
      for (let i = 0; i < t.length; i++) score += Math.log(f[t.charCodeAt(i) & 0xff]! / all);
      if (score < bestScore) [best, bestScore] = [t, score];
    }
    return best;
  }

  private rarestByte(needle: Buffer): number {
    const f = this.frequencies();
    let k = 0;
    for (let i = 1; i < needle.length; i++) if (f[needle[i]!]! < f[needle[k]!]!) k = i;
    return k;
  }

  /** Byte frequencies (smoothed) in a few slices spread over the byte-encoded modules. */
  private frequencies(): Float64Array {
    if (this.freq) return this.freq;
    const counts = new Float64Array(256).fill(1);
    const total = this.spans.reduce((s, x) => s + x.end - x.start, 0);
    const buf = Buffer.allocUnsafe(SAMPLE);
    for (let k = 0; k < SAMPLES && total > 0; k++) {
      // The k-th slice starts k/SAMPLES of the way through the program's bytes.
      let at = Math.floor((total * k) / SAMPLES);
      let i = 0;
      for (let len = this.spans[0]!.end - this.spans[0]!.start; at >= len; len = this.spans[++i]!.end - this.spans[i]!.start) at -= len;
      const span = this.spans[i]!;
      const b = this.container.readRange(span.start + at, Math.min(SAMPLE, span.end - span.start - at), buf);
      for (let j = 0; j < b.length; j++) counts[b[j]!]!++;
    }
    return (this.freq = counts);
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

/** Whether searching a module's text finds a marker where its bytes do: latin1 decodes byte for byte, UTF-8 keeps ASCII as it is. */
function sameInText(m: ModuleEntry, text: string): boolean {
  return m.encoding === "latin1" || (m.encoding === "utf8" && /^[\x00-\x7f]*$/.test(text));
}

/** Modules at most this far apart are read as one run (Bun leaves a NUL between two). */
const SPAN_GAP = 64 << 10;
const WINDOW = 1 << 20;
/** Searching everywhere stops once a variant's markers leave this few modules. */
const FEW = 16;
const SAMPLES = 4;
/** Bytes searched for from the rarest on (Node switches to Boyer-Moore from 7). */
const TAIL = 6;
const SAMPLE = 16 << 10;
