import type { ByteSource } from "./byte-source.js";
import { scanForPattern } from "./bun-scan.js";

/**
 * The runtime announces itself as "Bun v1.4.6 (358d8293c) Linux x64" in a read-only string region
 * (ELF `.rodata`, Mach-O `__TEXT,__cstring`/`__TEXT,__const`, PE `.rdata`). Only those regions
 * are searched, and only up to a fixed budget, so a 400 MB executable costs a few tens of MB of
 * reads at worst.
 */
const PREFIX = Buffer.from("Bun v", "latin1");
const VERSION = /^Bun v\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?/;
/** Total bytes searched at most (claude's .rodata is ~29 MB). */
const BUDGET = 96 << 20;

export interface Region {
  start: number;
  end: number;
}

export function findBunRuntime(src: ByteSource, regions: Region[]): string | null {
  let left = BUDGET;
  for (const r of regions) {
    const end = Math.min(r.end, r.start + left, src.size);
    if (end <= r.start) continue;
    left -= end - r.start;
    const hit = scanForPattern(src, r.start, end, PREFIX, VERSION);
    if (hit) return hit;
    if (left <= 0) break;
  }
  return null;
}
