import type { ByteSource } from "./byte-source.js";

/** Chunk size for bounded scans: memory stays at one chunk whatever the file size. */
const CHUNK = 1 << 20;

/**
 * Call `onHit(absOffset)` for every occurrence of `needle` in [start, end), reading one chunk at
 * a time (chunks overlap by needle.length − 1 so no occurrence is split). Stops early when
 * onHit returns true. Returns whether it stopped early.
 */
export function scanFor(src: ByteSource, start: number, end: number, needle: Buffer, onHit: (at: number) => boolean): boolean {
  const lo = Math.max(0, start);
  const hi = Math.min(src.size, end);
  const step = CHUNK;
  // One buffer for every window: a fresh megabyte per window costs its page faults again.
  let window: Buffer | null = null;
  for (let pos = lo; pos < hi; pos += step) {
    const len = Math.min(step + needle.length - 1, hi - pos);
    if (len < needle.length) break;
    window ??= Buffer.allocUnsafe(Math.min(step + needle.length - 1, hi - lo));
    const buf = src.readInto(pos, len, window);
    let i = buf.indexOf(needle);
    while (i >= 0) {
      // A hit in the overlap is found again by the next chunk; count it only once.
      if (i < step && onHit(pos + i)) return true;
      i = buf.indexOf(needle, i + 1);
    }
  }
  return false;
}

/** The first match of `re` in [start, end), scanning chunk by chunk as latin1 text; null if none. */
export function scanForPattern(src: ByteSource, start: number, end: number, prefix: Buffer, re: RegExp, maxMatch = 64): string | null {
  let found: string | null = null;
  scanFor(src, start, end, prefix, (at) => {
    const len = Math.min(maxMatch, Math.min(src.size, end) - at);
    const m = re.exec(src.read(at, len, "pattern window").toString("latin1"));
    if (m) found = m[0];
    return found !== null;
  });
  return found;
}
