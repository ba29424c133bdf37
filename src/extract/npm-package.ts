/**
 * An npm package — a folder or a .tgz, read without unpacking it (npm-tarball.ts) — opened as the container of
 * its program: the file its manifest names (npm-manifest.ts), or, for a wrapper package, the program of the
 * per-platform package it stands for when that is inside it too.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { isInside } from "../safe-write.js";
import { ExitCode, MalformedInput, SearchliftError, UnrecognizedInput } from "../errors.js";
import type { Container } from "./types.js";
import {
  oneLine,
  malformed,
  unrecognized,
  MAX_MANIFEST,
  MAX_PLACEHOLDER,
  type Manifest,
  parseManifest,
  label,
  chooseProgram,
  type ScopeType,
  scopeType,
  memberScope,
  nodeModuleFormat,
  platformPackages,
  hostPlatformPackage,
  wrapperError,
  isPlaceholder,
} from "./npm-manifest.js";
import { type ArchiveIndex, FILE_TYPES, indexTarball, indexTarballAsync, copyMember } from "./npm-tarball.js";

export { isGzip } from "./container.js";

type OpenFile = (file: string, input: string) => Container;

/** Virtual directory of a package's files, as in every npm tarball. */
const VIRTUAL_ROOT = "package";
/** A package containing a .tgz containing a .tgz… is refused beyond this depth (a gzip quine would never end). */
const MAX_NESTING = 2;
let nesting = 0;

/** An npm package folder or .tgz: open its bin (or main) file with `openFile`. */
export function openNpmPackage(input: string, openFile: OpenFile): Container {
  if (nesting >= MAX_NESTING) throw malformed(input, "npm package nested inside another package's program; refusing to unpack further");
  nesting++;
  try {
    return isDirectory(input) ? openDirectory(input, openFile) : openTarball(input, openFile);
  } finally {
    nesting--;
  }
}

/**
 * A .tgz opened as openNpmPackage opens it, with its decompression on a thread of libuv's pool: two
 * lifts in one process (check's releases) then unpack side by side, and this thread stays free for the
 * other's work. The archive is read in the same one pass, entry by entry, with the same outcome.
 */
export async function openTarballAsync(input: string, openFile: OpenFile): Promise<Container> {
  if (nesting >= MAX_NESTING) throw malformed(input, "npm package nested inside another package's program; refusing to unpack further");
  const dir = mkdtempSync(join(tmpdir(), "searchlift-npm-"));
  let archive: ArchiveIndex;
  try {
    archive = await indexTarballAsync(input, dir);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  nesting++;
  try {
    return openIndexed(input, dir, archive, openFile);
  } finally {
    nesting--;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Opening

/** Open the chosen file and present it as the package's program, in the format Node runs it in (`scope`: the "type" that scopes it). */
function finish(
  c: Container,
  input: string,
  m: Manifest,
  member: string,
  field: string,
  deps: Map<string, string>,
  scope: ScopeType,
): Container {
  if (c.format === "plain-script") {
    if (scope === "invalid")
      throw malformed(input, `${label(m)}: a package.json that scopes ${member} is not valid JSON; Node cannot run it`);
    c.format = "npm-package";
    const virtual = `${VIRTUAL_ROOT}/${member}`;
    for (const mod of c.modules) {
      mod.path = virtual;
      mod.moduleFormat = nodeModuleFormat(member, scope, mod.moduleFormat);
    }
    c.entry = virtual;
    c.notes.push(oneLine(`program of ${label(m)}: ${member} (from ${field})`));
  } else {
    c.notes.push(oneLine(`program of ${label(m)}: ${member} (from ${field}), a ${c.format} container`));
  }
  if (deps.size > 0)
    c.notes.push(oneLine(`${label(m)} also names platform packages; the native program may live in ${hostPlatformPackage(m, deps)}`));
  c.input = input;
  c.package = { name: m.name, version: m.version };
  return c;
}

function openDirectory(dir: string, openFile: OpenFile): Container {
  const manifestPath = join(dir, "package.json");
  if (!existsSync(manifestPath)) {
    if (isFile(join(dir, "index.js"))) {
      const m: Manifest = { name: basename(dir), version: "" };
      checkInsidePackage(dir, m, "index.js");
      // No package.json: Node looks further up, outside the package, which is not ours to read: no "type".
      return finish(openFile(join(dir, "index.js"), dir), dir, m, "index.js", "default index.js", new Map(), "none");
    }
    throw unrecognized(dir, "not an npm package: no package.json / no JavaScript");
  }
  checkInsidePackage(dir, { name: "", version: "" }, "package.json");
  const size = statSync(manifestPath).size;
  if (size > MAX_MANIFEST) throw malformed(dir, `package.json is ${size} bytes; refusing more than ${MAX_MANIFEST}`);
  const m = parseManifest(dir, readFileSync(manifestPath));
  const program = chooseProgram(dir, m);
  const { field } = program;
  const deps = platformPackages(m);
  const member = program.candidates.find((c) => isFile(join(dir, ...c.split("/")))) ?? program.member;
  const file = join(dir, ...member.split("/"));
  if (!isFile(file)) {
    if (deps.size > 0) throw wrapperError(dir, m, deps, member, "is missing");
    throw unrecognized(dir, `${label(m)}: its program ${member} (from ${field}) is not in the package — no JavaScript`);
  }
  checkInsidePackage(dir, m, member);
  if (deps.size > 0 && statSync(file).size <= MAX_PLACEHOLDER && isPlaceholder(readFileSync(file))) {
    throw wrapperError(dir, m, deps, member, "is a placeholder");
  }
  const nested = (sub: string): ScopeType | undefined => {
    const path = join(dir, ...sub.split("/"), "package.json");
    try {
      if (!statSync(path).isFile() || !isInside(realpathSync(dir), realpathSync(path))) return undefined;
      return statSync(path).size > MAX_MANIFEST ? "invalid" : scopeType(readFileSync(path));
    } catch {
      return undefined;
    }
  };
  return finish(openFile(file, dir), dir, m, member, field, deps, memberScope(member, scopeType(readFileSync(manifestPath)), nested));
}

/**
 * A package's files are the package's: a member that is (or lies under) a symlink leading out of the
 * folder would make us read, and report as the package, some other file of the machine.
 */
function checkInsidePackage(dir: string, m: Manifest, member: string): void {
  const root = realpathSync(dir);
  const real = realpathSync(join(dir, ...member.split("/")));
  if (real === root || !isInside(root, real)) {
    throw malformed(dir, `${label(m)}: its ${member} leads outside the package folder (a symlink to ${real})`);
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function openTarball(input: string, openFile: OpenFile): Container {
  // A private temporary directory holds the program's copy (named as in the package, so readers that look
  // at the extension see the real one) for as long as the container lives.
  const dir = mkdtempSync(join(tmpdir(), "searchlift-npm-"));
  let archive: ArchiveIndex;
  try {
    archive = indexTarball(input, dir);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return openIndexed(input, dir, archive, openFile);
}

/** The package's program, from the first pass's index and copies in `dir` (removed on failure, or with the container). */
function openIndexed(input: string, dir: string, archive: ArchiveIndex, openFile: OpenFile): Container {
  const drop = () => rmSync(dir, { recursive: true, force: true });
  try {
    if (archive.manifest === null) throw unrecognized(input, "not an npm package: no package.json in the archive");
    const m = parseManifest(input, archive.manifest);
    const program = chooseProgram(input, m);
    const { field } = program;
    const deps = platformPackages(m);
    // Of several candidate names (a `main` without extension), the first the archive holds, in Node's order.
    const member = program.candidates.find((c) => archive.last.has(c)) ?? program.member;
    const wanted = archive.last.get(member);
    if (wanted && !FILE_TYPES.has(wanted.type)) {
      throw unrecognized(input, `${label(m)}: its program ${member} is a ${wanted.type}, not a file`);
    }
    // The copy of the member's last occurrence (the one npm installs), from the first pass or a second.
    const first = archive.copies.get(member);
    const got = !wanted ? null : first?.index === wanted.index ? first : copyMember(input, dir, member, wanted.index);
    for (const c of archive.copies.values()) if (c !== got) rmSync(c.file, { force: true });
    if (got === null) {
      if (deps.size > 0) throw wrapperError(input, m, deps, member, "is missing");
      throw unrecognized(input, `${label(m)}: its program ${member} (from ${field}) is not in the package — no JavaScript`);
    }
    if (got.error) {
      const why = got.error.code ?? got.error.message;
      throw new SearchliftError(`cannot unpack ${member} into ${tmpdir()}: ${why}`, ExitCode.unreadable, input);
    }
    if (!got.done || got.written !== got.size) {
      throw malformed(input, `${member} is truncated in the archive (${got.written} of ${got.size} bytes)`);
    }
    const file = got.file;
    if (deps.size > 0 && got.size <= MAX_PLACEHOLDER && isPlaceholder(readFileSync(file))) {
      throw wrapperError(input, m, deps, member, "is a placeholder");
    }
    // Errors about the unpacked copy name the .tgz the user gave (the copy is gone by then).
    const relabel = (e: unknown) => relabelError(e, file, input, member);
    let c: Container;
    try {
      c = openFile(file, input);
    } catch (e) {
      throw relabel(e);
    }
    // A package.json that a later entry of the archive replaced by something else is not one.
    const nested = (dir: string) =>
      FILE_TYPES.has(archive.last.get(`${dir}/package.json`)?.type ?? "") ? archive.scopes.get(dir) : undefined;
    const scope = memberScope(member, scopeType(archive.manifest), nested);
    return finish(relabelled(c, relabel, drop), input, m, member, field, deps, scope);
  } catch (e) {
    drop();
    throw e;
  }
}

/** The container over the temporary copy, its errors relabelled; closing it removes the copy. */
function relabelled(c: Container, relabel: (e: unknown) => unknown, drop: () => void): Container {
  const [read, text, close] = [c.read.bind(c), c.text.bind(c), c.close.bind(c)];
  c.read = (mod) => {
    try {
      return read.call(c, mod);
    } catch (e) {
      throw relabel(e);
    }
  };
  c.text = (mod) => {
    try {
      return text.call(c, mod);
    } catch (e) {
      throw relabel(e);
    }
  };
  // The temporary copy lives exactly as long as the container.
  c.close = () => {
    try {
      close.call(c);
    } finally {
      drop();
    }
  };
  return c;
}

/** A reader's error about the temporary copy, re-addressed to the .tgz and its member. */
function relabelError(e: unknown, tmpFile: string, input: string, member: string): unknown {
  if (!(e instanceof SearchliftError) || (e.file !== tmpFile && e.file !== undefined)) return e;
  const message = oneLine(`${member}: ${e.message.split(tmpFile).join(member)}`);
  if (e instanceof MalformedInput) return new MalformedInput(input, message);
  if (e instanceof UnrecognizedInput) return new UnrecognizedInput(input, message);
  return new SearchliftError(message, e.exitCode, input);
}
