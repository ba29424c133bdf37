import type { ByteSource } from "./byte-source.js";
import type { Container } from "./types.js";

/** A plain .js/.mjs/.cjs file. null if the file is not a script. */
export function readPlainScript(_src: ByteSource, _input: string): Container | null {
  return null; // TODO(helper: npm)
}
