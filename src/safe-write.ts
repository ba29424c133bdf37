/**
 * Writing under a folder the user chose, and nowhere else. Path parts taken from an input are checked
 * by their owners (release-names.ts); this is the second guard: the resolved path must lie inside the
 * folder, and a file is written to a fresh temporary name (exclusive create: a symlink or file planted
 * there is never followed) and renamed over the final name (a symlink there is replaced, not followed).
 */
import { closeSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { ExitCode, SearchliftError } from "./errors.js";
import { quoted } from "./safe-text.js";

/** Whether `path` is `root` itself or below it (both resolved, no `..` left). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/** `root/parts…`, refused (exit 6) when it resolves outside `root`. */
export function pathInside(root: string, ...parts: string[]): string {
  const path = resolve(root, ...parts);
  if (!isInside(root, path) || path === resolve(root)) {
    throw new SearchliftError(`refusing to write outside the output folder: ${quoted(parts.join("/"))}`, ExitCode.output, root);
  }
  return path;
}

/**
 * Create `dir` (and its parents) below `root`, one folder at a time, checking each one's real path is
 * still inside `root`'s before going into it: a symlinked folder on the way must not carry the output
 * (or even an empty folder) elsewhere.
 */
export function makeDirInside(root: string, dir: string): void {
  mkdirSync(root, { recursive: true });
  const realRoot = realpathSync(root);
  let at = resolve(root);
  for (const part of relative(at, resolve(dir)).split(sep).filter(Boolean)) {
    at = join(at, part);
    try {
      mkdirSync(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    if (!isInside(realRoot, realpathSync(at))) {
      throw new SearchliftError(
        `refusing to write outside the output folder: ${quoted(at)} leads elsewhere (a symlink)`,
        ExitCode.output,
        root,
      );
    }
  }
}

/** Open a new temporary file beside `path` with exclusive create; a name already taken is skipped, never opened. */
export function createTemporary(path: string): { tmp: string; fd: number } {
  for (let attempt = 0; ; attempt++) {
    const tmp = attempt === 0 ? `${path}.tmp-${process.pid}` : `${path}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
    try {
      return { tmp, fd: openSync(tmp, "wx", 0o644) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 8) throw e;
    }
  }
}

/** Write `data` to a temporary file beside `path` (exclusive create); the caller renames it into place. */
export function writeTemporary(path: string, data: string | Buffer): string {
  const { tmp, fd } = createTemporary(path);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  return tmp;
}

/** Replace `path` with `data` atomically, following no symlink at the temporary or the final name. */
export function writeFileAtomic(path: string, data: string | Buffer): void {
  const tmp = writeTemporary(path, data);
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Write every file of `dir` (inside `root`) to a new temporary name beside it, then rename them all: no
 * half-written output, and no symlink followed at a temporary or final name. A failure is one SearchliftError.
 */
export function writeFilesInside(root: string, dir: string, files: Array<[string, string]>): void {
  const tmp: string[] = [];
  try {
    makeDirInside(root, dir);
    for (const [path, text] of files) tmp.push(writeTemporary(path, text));
    files.forEach(([path], i) => renameSync(tmp[i]!, path));
  } catch (e) {
    for (const t of tmp) rmSync(t, { force: true });
    if (e instanceof SearchliftError) throw e;
    throw new SearchliftError(`cannot write output: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.output, files[0]![0]);
  }
}
