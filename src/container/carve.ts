import { UnrecognizedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";
import type { Container } from "./types.js";

/** Strings-style carve: printable runs that parse as JavaScript. Throws UnrecognizedInput when none. */
export function carveScripts(_src: ByteSource, input: string): Container {
  throw new UnrecognizedInput(input, "no JavaScript found"); // TODO(helper: npm)
}
