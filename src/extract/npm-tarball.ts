/**
 * Reading an npm .tgz without unpacking it: the archive streamed through gunzip and tar in bounded memory, an
 * index of its members, package.json taken on the way, and the program's candidates copied to a private folder
 * as they pass (a few at most), so that one pass is usually all it takes.
 */
import { closeSync, mkdirSync, openSync, read, readSync, rmSync, writeSync } from "node:fs";
import { createGunzip, type Gunzip } from "node:zlib";
import { createRequire } from "node:module";
import { join, posix } from "node:path";
import type { ReadEntry } from "tar";
import { ExitCode, SearchliftError } from "../errors.js";
import {
  malformed,
  unrecognized,
  MAX_MANIFEST,
  parseManifest,
  executableLooking,
  chooseProgram,
  type ScopeType,
  scopeType,
} from "./npm-manifest.js";

/** Read size while streaming a .tgz: memory stays at this plus one decompressed chunk. */
const READ_CHUNK = 1024 * 1024;

type OnEntry = (entry: ReadEntry, path: string) => "take" | "skip";

/** tar's parser for one pass, and what it has reported so far. */
function tarPass(onEntry: OnEntry, done: () => boolean) {
  let failure: { code: string; message: string } | null = null;
  let sawEntry = false;
  // tar loads when an archive is read: every other input starts without it (~10 ms).
  const { Parser } = createRequire(import.meta.url)("tar") as typeof import("tar");
  const parser = new Parser({
    onReadEntry: (entry: ReadEntry) => {
      sawEntry = true;
      const path = entry.path.replace(/^\.\//, "");
      if (done() || onEntry(entry, path) !== "take") entry.resume();
    },
  });
  const fail = (code: string, message: string | Error) => {
    failure ??= { code, message: message instanceof Error ? message.message : message };
  };
  parser.on("warn", (code: string, message: string | Error) => {
    if (code !== "TAR_ENTRY_INFO") fail(code, message);
  });
  parser.on("error", (e: Error & { tarCode?: string }) => fail(e.tarCode ?? "TAR_ERROR", e));
  return {
    parser,
    fail,
    failed: () => failure !== null,
    /** Throw what went wrong, unless the pass had what it wanted first. */
    check(input: string): void {
      const f = failure;
      if (!f || done()) return;
      if (!sawEntry) throw unrecognized(input, "gzip data that is not a tar archive (not an npm package)");
      throw malformed(input, `broken .tgz: ${f.message.split("\n")[0]}`);
    },
  };
}

function openForReading(input: string): number {
  try {
    return openSync(input, "r");
  } catch (e) {
    throw new SearchliftError(`cannot read input: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.unreadable, input);
  }
}

/**
 * Stream a .tgz through tar's parser, synchronously, calling `onEntry` for each entry, until
 * `done()` holds or the archive ends. Entries not taken are drained (resumed) so nothing
 * accumulates in memory; a taken entry's data events fire during `parser.write`.
 */
function streamTar(input: string, onEntry: OnEntry, done: () => boolean): void {
  const pass = tarPass(onEntry, done);
  const fd = openForReading(input);
  try {
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    for (let pos = 0; !done();) {
      const n = readSync(fd, buf, 0, READ_CHUNK, pos);
      if (n === 0) {
        pass.parser.end();
        break;
      }
      pos += n;
      // tar keeps references to written chunks while an entry is in flight; hand it a copy.
      pass.parser.write(Buffer.from(buf.subarray(0, n)));
      if (pass.failed()) break;
    }
  } finally {
    closeSync(fd);
  }
  pass.check(input);
}

/**
 * streamTar to the archive's end, with the gzip layer decompressed by zlib's asynchronous stream (on libuv's
 * thread pool); tar's parser reads the plain archive it gives, in the same order, here. A gzip error is tar's
 * own wording.
 */
async function streamTarAsync(input: string, onEntry: OnEntry): Promise<void> {
  const pass = tarPass(onEntry, () => false);
  const fd = openForReading(input);
  const gunzip = createGunzip({ chunkSize: READ_CHUNK });
  const fed = feed(fd, gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      pass.parser.write(chunk);
      if (pass.failed()) break;
    }
    if (!pass.failed()) pass.parser.end();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.syscall) throw new SearchliftError(`cannot read input: ${err.code ?? err.message}`, ExitCode.unreadable, input);
    pass.fail("TAR_ABORT", `zlib: ${err.message}`);
  } finally {
    gunzip.destroy();
    await fed;
  }
  pass.check(input);
}

/**
 * Write the file at `fd` into `gunzip` and end it, then close `fd`. Two buffers take turns, each read into
 * again once zlib has consumed it: a read stream would allocate (and fault in) a fresh megabyte for each of
 * the 130 reads of a native release's tarball. Stops when the stream is destroyed; a read error destroys it.
 */
async function feed(fd: number, gunzip: Gunzip): Promise<void> {
  const closed = new Promise<void>((done) => gunzip.once("close", done));
  const buffers = [Buffer.allocUnsafe(READ_CHUNK), Buffer.allocUnsafe(READ_CHUNK)];
  const consumed = [Promise.resolve(), Promise.resolve()];
  try {
    for (let turn = 0, pos = 0; ; turn ^= 1) {
      await Promise.race([consumed[turn], closed]);
      if (gunzip.destroyed) return;
      const n = await readAt(fd, buffers[turn]!, pos);
      if (gunzip.destroyed) return;
      if (n === 0) break;
      pos += n;
      consumed[turn] = new Promise<void>((done) => gunzip.write(buffers[turn]!.subarray(0, n), () => done()));
    }
    gunzip.end();
  } catch (e) {
    gunzip.destroy(e as Error);
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, into: Buffer, position: number): Promise<number> {
  return new Promise((done, fail) => read(fd, into, 0, into.length, position, (e, n) => (e ? fail(e) : done(n))));
}

/** A tar entry's path inside the package: npm drops the first component (`package/`, whatever it is named). */
function packagePath(path: string): string | null {
  const slash = path.indexOf("/");
  return slash > 0 && slash < path.length - 1 ? path.slice(slash + 1) : null;
}

/** The last entry of each package path: npm unpacks entries in order, so a later copy replaces an earlier one. */
export interface ArchiveIndex {
  manifest: Buffer | null;
  /** The "type" of each package.json below the root, by its folder (package-relative), last occurrence. */
  scopes: Map<string, ScopeType>;
  last: Map<string, { index: number; type: string }>;
  /** Copies made while reading, by package path: the program, when the pass could tell which member it is. */
  copies: Map<string, MemberCopy>;
}

/** A member written to a temporary file as tar hands it over. */
interface MemberCopy {
  index: number;
  file: string;
  size: number;
  written: number;
  done: boolean;
  error: NodeJS.ErrnoException | null;
  /** Open until the entry ends or the pass does. */
  fd: number | null;
}

function closeCopy(copy: MemberCopy): void {
  if (copy.fd !== null) closeSync(copy.fd);
  copy.fd = null;
}

/** Members copied on speculation before package.json is read (platform packages put it after the program). */
const MAX_SPECULATIVE_COPIES = 4;

export const FILE_TYPES = new Set(["File", "OldFile", "ContiguousFile"]);

/** Write `entry`'s data to `file` (created, never overwritten) as it arrives. */
function copyEntry(entry: ReadEntry, index: number, file: string): MemberCopy {
  const out = openSync(file, "wx", 0o600);
  const copy: MemberCopy = { index, file, size: entry.size, written: 0, done: false, error: null, fd: out };
  entry.on("data", (c: Buffer) => {
    if (copy.error) return;
    try {
      for (let off = 0; off < c.length;) off += writeSync(out, c, off, c.length - off, copy.written + off);
      copy.written += c.length;
    } catch (e) {
      copy.error = e as NodeJS.ErrnoException;
    }
  });
  entry.on("end", () => {
    copy.done = true;
    closeCopy(copy);
  });
  return copy;
}

/** The paths that may hold the program by this manifest; none while it cannot be read. */
function programCandidates(input: string, manifest: Buffer): Set<string> {
  try {
    return new Set(chooseProgram(input, parseManifest(input, manifest)).candidates);
  } catch {
    return new Set();
  }
}

/**
 * The one pass over the whole archive: the last package.json (it may follow a 400 MB member), where each path
 * last occurs, and copies, into `dir`, of the members that may be the program. Once package.json has been
 * read those are its candidates; before it, a few top-level executable-looking files, on speculation.
 */
export function indexTarball(input: string, dir: string): ArchiveIndex {
  const pass = indexPass(input, dir);
  try {
    streamTar(input, pass.onEntry, () => false);
  } finally {
    pass.closeCopies();
  }
  return pass.index();
}

/** indexTarball, decompressing on libuv's pool (streamTarAsync). */
export async function indexTarballAsync(input: string, dir: string): Promise<ArchiveIndex> {
  const pass = indexPass(input, dir);
  try {
    await streamTarAsync(input, pass.onEntry);
  } finally {
    pass.closeCopies();
  }
  return pass.index();
}

/** What indexTarball does with each entry, and what it has found. */
function indexPass(input: string, dir: string) {
  const last = new Map<string, { index: number; type: string }>();
  const copies = new Map<string, MemberCopy>();
  const scopes = new Map<string, ScopeType>();
  let manifest: Buffer | null = null;
  let candidates: Set<string> | null = null;
  let speculative = 0;
  let index = -1;
  const mayBeProgram = (rel: string) =>
    candidates ? candidates.has(rel) : !rel.includes("/") && executableLooking(rel) && speculative < MAX_SPECULATIVE_COPIES;
  const keepCopy = (entry: ReadEntry, rel: string) => {
    const previous = copies.get(rel);
    if (previous) rmSync(previous.file, { force: true });
    else if (!candidates) speculative++;
    const sub = join(dir, String(index));
    mkdirSync(sub);
    copies.set(rel, copyEntry(entry, index, join(sub, posix.basename(rel))));
  };
  const onEntry: OnEntry = (entry, path) => {
    index++;
    const rel = packagePath(path);
    if (rel === null || entry.type === "Directory") return "skip";
    last.set(rel, { index, type: entry.type });
    if (rel === "package.json" && entry.type === "File") {
      takeManifest(input, entry, (bytes) => {
        manifest = bytes;
        candidates = programCandidates(input, bytes);
      });
      return "take";
    }
    if (rel.endsWith("/package.json") && FILE_TYPES.has(entry.type)) {
      const folder = rel.slice(0, -"/package.json".length);
      if (entry.size > MAX_MANIFEST) scopes.set(folder, "invalid");
      else takeManifest(input, entry, (bytes) => scopes.set(folder, scopeType(bytes)));
      return "take";
    }
    if (!FILE_TYPES.has(entry.type) || !mayBeProgram(rel)) return "skip";
    keepCopy(entry, rel);
    return "take";
  };
  return {
    onEntry,
    closeCopies: () => {
      for (const c of copies.values()) closeCopy(c);
    },
    index: (): ArchiveIndex => ({ manifest, scopes, last, copies }),
  };
}

function takeManifest(input: string, entry: ReadEntry, done: (bytes: Buffer) => void): void {
  if (entry.size > MAX_MANIFEST) throw malformed(input, `package.json is ${entry.size} bytes; refusing more than ${MAX_MANIFEST}`);
  const chunks: Buffer[] = [];
  let got = 0;
  entry.on("data", (c: Buffer) => {
    got += c.length;
    if (got <= MAX_MANIFEST) chunks.push(c);
  });
  entry.on("end", () => done(Buffer.concat(chunks)));
}

/** A second pass, when the first could not tell the program in time: copy the entry at `index` into `dir`. */
export function copyMember(input: string, dir: string, member: string, index: number): MemberCopy | null {
  const sub = join(dir, "second-pass");
  mkdirSync(sub);
  let copy: MemberCopy | null = null;
  let at = -1;
  try {
    streamTar(
      input,
      (entry) => {
        at++;
        if (copy !== null || at !== index) return "skip";
        copy = copyEntry(entry, index, join(sub, posix.basename(member)));
        return "take";
      },
      () => copy !== null && copy.done,
    );
  } finally {
    if (copy) closeCopy(copy);
  }
  return copy;
}
