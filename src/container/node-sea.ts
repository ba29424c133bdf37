import type { ByteSource } from "./byte-source.js";
import type { Container } from "./types.js";

/** Node single executable application (ELF note / Mach-O segment / PE resource). null if not SEA. */
export function readNodeSea(_src: ByteSource, _input: string): Container | null {
  return null; // TODO(helper: sea)
}
