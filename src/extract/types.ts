import type { ByteSource } from "./byte-source.js";
import type { ContainerFormat, ModuleFormat } from "../module-formats.js";

// Declared below extract/ so that the parser (src/ast/) can name them; re-exported for extract's importers.
export type { ContainerFormat, ModuleFormat };

export type ModuleKind = "js" | "asset" | "native-addon";
/** How `contents` bytes turn into text. "binary" = raw bytes (assets). */
export type Encoding = "utf8" | "latin1" | "utf16le" | "binary";

export interface ModuleEntry {
  /** Virtual path as the runtime sees it (`/$bunfs/root/cli`, `B:/~BUN/root/x.js`, `package/cli.js`, …). */
  path: string;
  kind: ModuleKind;
  /** The packer's loader name (`js`, `file`, `napi`, `text`, …); for non-Bun inputs a best description. */
  loader: string;
  moduleFormat: ModuleFormat;
  encoding: Encoding;
  /** Length of the contents in bytes. */
  size: number;
  /** Whether precompiled bytecode sits beside the source. */
  bytecode: boolean;
  /** Absolute byte range of the contents in the input file (for a .tgz input: in the unpacked member, see Container.file). */
  start: number;
  end: number;
  /** Extra, format-specific facts (sourcemap present, side, …) shown in --json. */
  extra?: Record<string, unknown>;
}

export interface Container {
  /** The path the user gave. */
  input: string;
  /** The file the byte ranges refer to (differs from input for .tgz packages and directories). */
  file: string;
  format: ContainerFormat;
  /** Embedded runtime version string such as "Bun v1.4.6" or "Node v20.20.2", if one was found. */
  runtime: string | null;
  /** Virtual path of the entry module, if the container names one. */
  entry: string | null;
  modules: ModuleEntry[];
  /** Non-fatal remarks worth showing (e.g. "the program lives in the platform package …"). */
  notes: string[];
  /** For an npm package input: its package.json name and version. */
  package?: { name: string; version: string };
  /** Raw contents bytes of a module, read lazily by position. */
  read(module: ModuleEntry): Buffer;
  /**
   * Bytes [start, start+length) of `file`, in `into` where the source is a file (else a view of
   * memory): what scans several modules at once read, one window at a time, into one buffer.
   */
  readRange(start: number, length: number, into: Buffer): Buffer;
  /** Decoded text of a JS/text module (latin1, utf8 or utf16le as recorded). */
  text(module: ModuleEntry): string;
  close(): void;
}

/**
 * A container format reader. `detect` is cheap (headers only) and returns null when the input is
 * not of this format; once it has claimed the input, structural problems are thrown as MalformedInput.
 */
export interface ContainerReader {
  name: string;
  open(src: ByteSource, input: string): Container | null;
}
