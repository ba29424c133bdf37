/**
 * The corpus's random numbers: one small seeded generator, the same on every platform, from which every case
 * is drawn (corpus.ts), and the values of tool fields beyond the contract's (field-values.ts).
 */

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
}

/** sfc32 seeded through splitmix32: small, fast, and the same on every platform. */
export function createRng(seed: number): Rng {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  // The state [a, b, c, d] lives in a typed array: as closure variables, each value of 2^31 or more was a heap
  // number, two or so per draw, and the corpus makes millions of draws. Stores wrap modulo 2^32, as `>>> 0` did.
  const state = new Uint32Array([split(), split(), split(), split()]);
  const u32 = () => {
    const a = state[0]!,
      b = state[1]!,
      c = state[2]!,
      d = state[3]!;
    const t = (((a + b) >>> 0) + d) >>> 0;
    state[3] = d + 1;
    state[0] = b ^ (b >>> 9);
    state[1] = c + (c << 3);
    state[2] = ((c << 21) | (c >>> 11)) + t;
    return t;
  };
  for (let i = 0; i < 12; i++) u32();
  // Each method draws from u32 directly (the same arithmetic as going through next): the corpus makes
  // millions of draws, and a call through the object per draw was a measurable part of its time.
  const int = (n: number) => Math.floor((u32() / 4294967296) * n);
  const rng: Rng = {
    next: () => u32() / 4294967296,
    int,
    range: (lo, hi) => lo + int(hi - lo + 1),
    chance: (p) => u32() / 4294967296 < p,
    pick: (items) => {
      if (items.length === 0) throw new RangeError("pick from an empty list");
      return items[int(items.length)]!;
    },
    shuffle: (items) => {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const t = out[i]!;
        out[i] = out[j]!;
        out[j] = t;
      }
      return out;
    },
  };
  return rng;
}
