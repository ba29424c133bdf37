import { statSync } from "node:fs";
import { FileByteSource, type ByteSource } from "./byte-source.js";
import { readBun } from "./bun.js";
import { isGzip } from "./container.js";
import { readNodeSea } from "./node-sea.js";
import type { Container } from "./types.js";

/** The executable formats, in openFile's order: the inputs whose modules are listed without parsing JavaScript. */
export function readExecutable(src: ByteSource, input: string): Container | null {
  return readBun(src, input) ?? readNodeSea(src, input);
}

/**
 * openContainer for a command that may need no JavaScript parser (extract). A Bun or Node SEA executable, the
 * large input, is opened without loading acorn and the script, package and carving readers, which are imported
 * only for the other inputs; the same steps run in the same order, with the same results and errors.
 */
export async function openContainerLazily(input: string): Promise<Container> {
  const src = openRegularFile(input);
  if (!src) return (await import("./open-container.js")).openContainer(input);
  try {
    // openFile's checks before the executable readers: an empty file or a .tgz goes through openContainer.
    const other = src.size === 0 || isGzip(src.read(0, Math.min(src.size, 64)));
    const found = other ? null : readExecutable(src, input);
    if (found) return found;
    const stages = await import("./open-container.js");
    if (!other) return stages.readNonExecutable(src, input);
    src.close();
    return stages.openContainer(input);
  } catch (e) {
    src.close();
    throw e;
  }
}

/** The input as a regular file, or null for a folder or anything unreadable (openContainer says why, in its words). */
function openRegularFile(input: string): FileByteSource | null {
  try {
    return statSync(input).isFile() ? new FileByteSource(input) : null;
  } catch {
    return null;
  }
}
