import { checkRange, type ByteSource } from "./byte-source.js";
import type { Container, ContainerFormat, Encoding, ModuleEntry } from "./types.js";

/** A gzip stream (an npm .tgz) starts with these two bytes. */
export function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** Bytes → text by the module's recorded encoding. Binary assets decode as latin1 so no byte is lost. */
export function decode(bytes: Buffer, encoding: Encoding): string {
  switch (encoding) {
    case "utf8":
      return bytes.toString("utf8");
    case "utf16le":
      return bytes.toString("utf16le");
    case "latin1":
    case "binary":
      return bytes.toString("latin1");
  }
}

export interface ContainerFields {
  input: string;
  format: ContainerFormat;
  /** The runtime's version string, or how to find it: a scan of the executable, which only a listing needs. */
  runtime: string | null | (() => string | null);
  entry: string | null;
  modules: ModuleEntry[];
  notes?: string[];
  /** The file the module ranges refer to; defaults to src.path. */
  file?: string;
  /** Called by close() after the source is closed (e.g. to drop a temporary file). */
  onClose?: () => void;
}

/** How much of a one-byte module's text is read at a time. */
const TEXT_WINDOW = 1 << 20;

/** A Container whose modules are byte ranges [start, end) of `src`, read on demand. */
export function rangeContainer(src: ByteSource, fields: ContainerFields): Container {
  // Texts are decoded from one buffer, reused: a fresh one per module (megabytes each) cost more in
  // page faults than the read itself. Decoding copies, so no text keeps the buffer. A one-byte text
  // is decoded a window at a time and joined, so the buffer stays a window's size.
  let scratch: Buffer | null = null;
  const buffer = (length: number) => (!scratch || scratch.length < length ? (scratch = Buffer.allocUnsafe(length)) : scratch);
  const text = (m: ModuleEntry): string => {
    const length = m.end - m.start;
    checkRange(src, m.start, length, m.path);
    if (m.encoding !== "latin1" && m.encoding !== "binary") return decode(src.readInto(m.start, length, buffer(length)), m.encoding);
    const window = buffer(Math.min(length, TEXT_WINDOW));
    const parts: string[] = [];
    for (let at = 0; at < length; at += window.length)
      parts.push(src.readInto(m.start + at, Math.min(window.length, length - at), window).toString("latin1"));
    return parts.join("");
  };
  return {
    input: fields.input,
    file: fields.file ?? src.path,
    format: fields.format,
    get runtime() {
      return typeof fields.runtime === "function" ? (fields.runtime = fields.runtime()) : fields.runtime;
    },
    entry: fields.entry,
    modules: fields.modules,
    notes: fields.notes ?? [],
    read: (m) => src.read(m.start, m.end - m.start, m.path),
    readRange: (start, length, into) => src.readInto(start, length, into),
    text,
    close: () => {
      scratch = null;
      src.close();
      fields.onClose?.();
    },
  };
}
