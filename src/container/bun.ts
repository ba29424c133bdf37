import type { ByteSource } from "./byte-source.js";
import type { Container } from "./types.js";

/** Bun standalone executable (ELF/Mach-O/PE section, or the legacy appended payload). null if not Bun. */
export function readBun(_src: ByteSource, _input: string): Container | null {
  return null; // TODO(helper: bun)
}
