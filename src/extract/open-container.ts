import { statSync } from "node:fs";
import { ExitCode, SearchliftError, UnrecognizedInput } from "../errors.js";
import { FileByteSource, type ByteSource } from "./byte-source.js";
import { carveScripts } from "./carve.js";
import { readExecutable } from "./open-executable.js";
import { openNpmPackage, openTarballAsync, isGzip } from "./npm-package.js";
import { readPlainScript } from "./plain-script.js";
import type { Container } from "./types.js";

/**
 * Open any supported input and list its modules. Only headers and tables are read here;
 * module contents are read later, on demand, by position.
 *
 * Order: folders and .tgz are npm packages; files are tried as Bun standalone (section formats,
 * then the legacy appended payload), Node SEA, a plain script, and finally carved.
 */
export function openContainer(input: string): Container {
  let st;
  try {
    st = statSync(input);
  } catch (e) {
    throw new SearchliftError(`cannot read input: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.unreadable, input);
  }
  if (st.isDirectory()) return openNpmPackage(input, openFile);
  return openFile(input, input);
}

/**
 * openContainer, with a .tgz decompressed off this thread (openTarballAsync): what a lift uses, so that two
 * lifts in one process unpack their releases side by side.
 */
export async function openContainerAsync(input: string): Promise<Container> {
  if (isGzipFile(input)) return openTarballAsync(input, openFile);
  return openContainer(input);
}

/** A regular file that starts as gzip data; anything else (a folder, a missing file) is openContainer's to judge. */
function isGzipFile(input: string): boolean {
  let src: ByteSource | undefined;
  try {
    if (!statSync(input).isFile()) return false;
    src = new FileByteSource(input);
    return src.size > 0 && isGzip(src.read(0, Math.min(src.size, 2)));
  } catch {
    return false;
  } finally {
    src?.close();
  }
}

/** Open the file at `file`, reporting it as `input` (they differ for a file unpacked from a package). */
export function openFile(file: string, input: string): Container {
  let src: ByteSource;
  try {
    src = new FileByteSource(file);
  } catch (e) {
    throw new SearchliftError(`cannot read input: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.unreadable, input);
  }
  try {
    if (src.size === 0) throw new UnrecognizedInput(input, "empty file");
    const head = src.read(0, Math.min(src.size, 64));
    if (isGzip(head)) {
      src.close();
      return openNpmPackage(file, openFile);
    }
    return readExecutable(src, input) ?? readNonExecutable(src, input);
  } catch (e) {
    src.close();
    throw e;
  }
}

/** What a file that is not an executable is read as: a plain script, else the scripts carved out of it. */
export function readNonExecutable(src: ByteSource, input: string): Container {
  return readPlainScript(src, input) ?? carveScripts(src, input);
}
