/**
 * A small source map v3 reader for tests: decodes the VLQ `mappings` itself (no dependency on the
 * code under test or on transitive packages) and answers "where did this original position go".
 */
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...B64].map((c, i) => [c, i] as const));

export interface Segment {
  /** 0-based generated line and column (UTF-16 units). */
  genLine: number;
  genCol: number;
  source: number;
  /** 0-based original line and column. */
  line: number;
  col: number;
  name?: string;
}

export interface SourceMapV3 {
  version: number;
  sources: string[];
  names?: string[];
  mappings: string;
}

/** Decode one VLQ-encoded segment field list ("AAAA" → [0,0,0,0]). */
export function decodeVlq(field: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of field) {
    const d = DIGIT.get(c);
    if (d === undefined) throw new Error(`bad base64 digit ${JSON.stringify(c)} in ${field}`);
    value += (d & 31) << shift;
    if (d & 32) {
      shift += 5;
    } else {
      const neg = value & 1;
      value >>>= 1;
      out.push(neg ? -value : value);
      value = 0;
      shift = 0;
    }
  }
  if (shift !== 0) throw new Error(`unterminated VLQ in ${field}`);
  return out;
}

/** Every mapped segment (segments without a source are dropped). */
export function decodeMappings(map: SourceMapV3): Segment[] {
  const out: Segment[] = [];
  let source = 0;
  let line = 0;
  let col = 0;
  let name = 0;
  map.mappings.split(";").forEach((group, genLine) => {
    let genCol = 0;
    for (const field of group.split(",")) {
      if (field === "") continue;
      const v = decodeVlq(field);
      genCol += v[0]!;
      if (v.length < 4) continue;
      source += v[1]!;
      line += v[2]!;
      col += v[3]!;
      const seg: Segment = { genLine, genCol, source, line, col };
      if (v.length >= 5) {
        name += v[4]!;
        seg.name = map.names?.[name];
      }
      out.push(seg);
    }
  });
  return out;
}

/** Character offset ↔ 0-based line/column in a text. */
export class LineIndex {
  private starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }
  offset(line: number, col: number): number {
    const s = this.starts[line];
    if (s === undefined) throw new Error(`line ${line} out of range`);
    return s + col;
  }
  position(offset: number): { line: number; col: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, col: offset - this.starts[lo]! };
  }
}

/** The identifier that starts at `offset` of `text` ("" if none). */
export function identifierAt(text: string, offset: number): string {
  return /^[A-Za-z_$][\w$]*/.exec(text.slice(offset, offset + 200))?.[0] ?? "";
}
