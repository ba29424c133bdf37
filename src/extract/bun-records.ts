/** The module table of a Bun graph (bun-payload.ts): its record sizes and layouts, read as u32 words. */

/** Record layouts, tried in this order (newest first: the common case). */
export const RECORD_SIZES = [52, 36, 28, 32] as const;
export type RecordSize = (typeof RECORD_SIZES)[number];

export interface Sp {
  off: number;
  len: number;
}

export function sp(b: Buffer, o: number): Sp {
  return { off: b.readUInt32LE(o), len: b.readUInt32LE(o + 4) };
}
export const NO_SP: Sp = { off: 0, len: 0 };

/**
 * Where each field sits in a record, per record size. Pointers are counted in u32 words from
 * the record start (every record size is a multiple of 4); -1 = the field did not exist yet.
 */
interface Layout {
  /** Word index of each pointer's offset (its length is the next word). */
  name: number;
  contents: number;
  sourcemap: number;
  bytecode: number;
  moduleInfo: number;
  originPath: number;
  /** Byte positions of the u8 enums. */
  encoding: number;
  loader: number;
  format: number;
  side: number;
}
const LAYOUT: Record<RecordSize, Layout> = {
  32: { name: 0, contents: 2, sourcemap: 4, bytecode: -1, moduleInfo: -1, originPath: -1, encoding: -1, loader: 24, format: -1, side: -1 }, // 1.0.0–1.1.21
  28: { name: 0, contents: 2, sourcemap: 4, bytecode: -1, moduleInfo: -1, originPath: -1, encoding: 24, loader: 25, format: -1, side: -1 }, // 1.1.22–1.1.29
  36: { name: 0, contents: 2, sourcemap: 4, bytecode: 6, moduleInfo: -1, originPath: -1, encoding: 32, loader: 33, format: 34, side: 35 }, // 1.1.30–1.3.8
  52: { name: 0, contents: 2, sourcemap: 4, bytecode: 6, moduleInfo: 8, originPath: 10, encoding: 48, loader: 49, format: 50, side: 51 }, // 1.3.9+
};

/**
 * The module table as u32 words plus its bytes. Thousands of records are validated without
 * creating an object per record (a 4000-module table is checked in well under a millisecond).
 */
export class Table {
  readonly words: Uint32Array;
  readonly count: number;
  readonly stride: number;
  readonly layout: Layout;
  constructor(
    readonly bytes: Buffer,
    readonly size: RecordSize,
  ) {
    this.count = bytes.length / size;
    this.stride = size / 4;
    this.layout = LAYOUT[size];
    this.words = toWords(bytes);
  }
  /** Offset and length words of pointer field `w` of record i (0/0 for a field this layout lacks). */
  off(i: number, w: number): number {
    return w < 0 ? 0 : this.words[i * this.stride + w]!;
  }
  len(i: number, w: number): number {
    return w < 0 ? 0 : this.words[i * this.stride + w + 1]!;
  }
  u8(i: number, at: number): number | null {
    return at < 0 ? null : this.bytes[i * this.size + at]!;
  }
}

const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian u32 view of `b` (copied when unaligned or on a big-endian host). */
function toWords(b: Buffer): Uint32Array {
  const n = b.length >>> 2;
  if (HOST_LE && b.byteOffset % 4 === 0) return new Uint32Array(b.buffer, b.byteOffset, n);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = b.readUInt32LE(i * 4);
  return out;
}
