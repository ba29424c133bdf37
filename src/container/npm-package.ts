import { UnrecognizedInput } from "../errors.js";
import type { Container } from "./types.js";

export function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** An npm package folder or .tgz: open its bin (or main) file with `openFile`. */
export function openNpmPackage(input: string, _openFile: (file: string, input: string) => Container): Container {
  throw new UnrecognizedInput(input, "npm packages not supported yet"); // TODO(helper: npm)
}
