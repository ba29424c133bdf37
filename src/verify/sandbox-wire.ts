/**
 * What goes down the pipe to the sandbox's child (sandbox.ts): a call's arguments as one line of JSON in ASCII
 * only (every other character escaped), encoded once per argument list and kept for its next run.
 */

/** Argument lists as request lines, kept while their array lives: both sides of a verification send the same ones. */
const argLines = new WeakMap<unknown[], Buffer>();

/** Encode an argument list now, while the host waits for something else: a later call that passes this
 *  array (the same one) sends the line made here. Arguments that are not JSON throw here. */
export function encodeArguments(args: unknown[]): void {
  argLine(args);
}

export function argLine(args: unknown[]): Buffer {
  let line = argLines.get(args);
  if (line === undefined) {
    line = asciiJsonLine(args);
    argLines.set(args, line);
  }
  return line;
}

/**
 * JSON text with every character past ASCII escaped (`\uXXXX`, one per UTF-16 unit), and a newline, as bytes:
 * the child reads its request as one-byte text, which it decodes, parses and holds at half the cost of UTF-16.
 * Escaped in the text's UTF-8 encoding (native) rather than by a regular expression over the JSON text, which
 * is UTF-16 as soon as one character is past Latin-1 (1965 of verify's 2000 argument lists); the bytes are what
 * is written. JSON.stringify's text is well-formed (lone surrogates come out escaped), so its UTF-8 decodes back
 * to the same UTF-16 units.
 */
export function asciiJsonLine(value: unknown): Buffer {
  const utf8 = Buffer.from(JSON.stringify(value) + "\n", "utf8");
  let size = utf8.length;
  for (let i = 0; i < utf8.length; i++) {
    const b = utf8[i]!;
    if (b < 0x80) continue;
    const n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    size += (n === 4 ? 12 : 6) - n;
    i += n - 1;
  }
  if (size === utf8.length) return utf8;
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  let run = 0;
  for (let i = 0; i < utf8.length;) {
    const b = utf8[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    o += utf8.copy(out, o, run, i);
    let cp: number;
    if (b >= 0xf0) cp = ((b & 0x07) << 18) | ((utf8[i + 1]! & 0x3f) << 12) | ((utf8[i + 2]! & 0x3f) << 6) | (utf8[i + 3]! & 0x3f);
    else if (b >= 0xe0) cp = ((b & 0x0f) << 12) | ((utf8[i + 1]! & 0x3f) << 6) | (utf8[i + 2]! & 0x3f);
    else cp = ((b & 0x1f) << 6) | (utf8[i + 1]! & 0x3f);
    i += b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    run = i;
    if (cp >= 0x10000) {
      o = escapeUnit(out, o, 0xd800 + ((cp - 0x10000) >> 10));
      o = escapeUnit(out, o, 0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else o = escapeUnit(out, o, cp);
  }
  utf8.copy(out, o, run);
  return out;
}

const HEX = "0123456789abcdef";

/** Write `\uXXXX` (lower-case hex) for one UTF-16 unit at `o`; returns the offset after it. */
function escapeUnit(out: Buffer, o: number, unit: number): number {
  out[o] = 0x5c; // backslash
  out[o + 1] = 0x75; // u
  for (let k = 0; k < 4; k++) out[o + 2 + k] = HEX.charCodeAt((unit >> (12 - 4 * k)) & 0xf);
  return o + 6;
}
