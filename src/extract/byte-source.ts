import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { MalformedInput } from "../errors.js";

/**
 * Random access to a file by position. Containers are hundreds of megabytes: nothing reads a
 * whole file, and every read is checked against the real size before a buffer is allocated,
 * so a length field claiming 4 GB costs nothing but an error.
 */
export interface ByteSource {
  readonly path: string;
  readonly size: number;
  /** Bytes [start, start+length). Throws MalformedInput if the range is not inside the source. */
  read(start: number, length: number, what?: string): Buffer;
  /** The same bytes, stored in `into` (at least `length` long) where a copy is needed: scans of a whole program reuse one buffer. */
  readInto(start: number, length: number, into: Buffer): Buffer;
  close(): void;
}

export function checkRange(src: { path: string; size: number }, start: number, length: number, what = "range"): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(length) || start < 0 || length < 0 || start + length > src.size) {
    throw new MalformedInput(src.path, `${what} [${start}, +${length}) lies outside the ${src.size}-byte file`);
  }
}

export class FileByteSource implements ByteSource {
  readonly size: number;
  private fd: number | null;

  constructor(readonly path: string) {
    this.fd = openSync(path, "r");
    this.size = fstatSync(this.fd).size;
  }

  read(start: number, length: number, what?: string): Buffer {
    // Checked before the buffer is made: the length may be any number a header claims.
    checkRange(this, start, length, what);
    return this.readInto(start, length, Buffer.allocUnsafe(length), what);
  }

  readInto(start: number, length: number, buf: Buffer, what?: string): Buffer {
    checkRange(this, start, length, what);
    if (this.fd === null) throw new Error(`${this.path}: read after close`);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, buf, done, length - done, start + done);
      if (n === 0) throw new MalformedInput(this.path, `file shrank while reading at ${start + done}`);
      done += n;
    }
    return buf.subarray(0, length);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** An in-memory source: small inputs, tests, and slices of a file (fat Mach-O members). */
export class BufferByteSource implements ByteSource {
  readonly size: number;
  constructor(
    readonly path: string,
    private readonly buf: Buffer,
  ) {
    this.size = buf.length;
  }
  read(start: number, length: number, what?: string): Buffer {
    checkRange(this, start, length, what);
    return this.buf.subarray(start, start + length);
  }
  readInto(start: number, length: number): Buffer {
    return this.read(start, length);
  }
  close(): void {}
}

/** A window [base, base+size) of another source, addressed from 0 (one slice of a fat Mach-O). */
export class SliceByteSource implements ByteSource {
  constructor(
    private readonly parent: ByteSource,
    readonly base: number,
    readonly size: number,
  ) {
    checkRange(parent, base, size, "slice");
  }
  get path(): string {
    return this.parent.path;
  }
  read(start: number, length: number, what?: string): Buffer {
    checkRange(this, start, length, what);
    return this.parent.read(this.base + start, length, what);
  }
  readInto(start: number, length: number, into: Buffer): Buffer {
    checkRange(this, start, length);
    return this.parent.readInto(this.base + start, length, into);
  }
  close(): void {}
}
