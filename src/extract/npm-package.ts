import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  read,
  readFileSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { createGunzip, type Gunzip } from "node:zlib";
import { createRequire } from "node:module";
import { basename, join, posix } from "node:path";
import { isInside } from "../safe-write.js";
import type { ReadEntry } from "tar";
import { ExitCode, MalformedInput, SearchliftError, UnrecognizedInput } from "../errors.js";
import { isTextHead, looksLikeProgram, parseProgram, stripBom } from "./plain-script.js";
import type { Container, ModuleFormat } from "./types.js";

export { isGzip } from "./container.js";

type OpenFile = (file: string, input: string) => Container;

/**
 * Messages quote package.json values and tar/JSON errors, all attacker-controlled: control
 * characters are escaped and length capped so an error is always one readable line.
 */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === "\n" ? "\\n" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return flat.length > max ? flat.slice(0, max) + "…" : flat;
}
const malformed = (input: string, message: string) => new MalformedInput(input, oneLine(message));
const unrecognized = (input: string, message: string) => new UnrecognizedInput(input, oneLine(message));

/** package.json is a few KB; anything past this is not a manifest we should hold in memory. */
const MAX_MANIFEST = 1024 * 1024;
/** A launcher placeholder is a few hundred bytes; real programs are far larger. */
const MAX_PLACEHOLDER = 64 * 1024;
/** Read size while streaming a .tgz: memory stays at this plus one decompressed chunk. */
const READ_CHUNK = 1024 * 1024;
/** Virtual directory of a package's files, as in every npm tarball. */
const VIRTUAL_ROOT = "package";
/** Node's process.platform values: optionalDependencies named `<name>-<platform>-<arch>` are per-host builds. */
const NODE_PLATFORMS = ["darwin", "linux", "win32", "freebsd", "openbsd", "netbsd", "sunos", "aix", "android"];
/** A package containing a .tgz containing a .tgz… is refused beyond this depth (a gzip quine would never end). */
const MAX_NESTING = 2;
let nesting = 0;

interface Manifest {
  name: string;
  version: string;
  bin?: unknown;
  main?: unknown;
  files?: unknown;
  optionalDependencies?: unknown;
  type?: unknown;
}

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
// Choosing the program

function parseManifest(input: string, bytes: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(stripBom(bytes.toString("utf8")));
  } catch (e) {
    throw malformed(input, `package.json is not valid JSON: ${(e as Error).message}`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw malformed(input, "package.json is not a JSON object");
  const m = json as Record<string, unknown>;
  return { ...m, name: typeof m.name === "string" ? m.name : "", version: typeof m.version === "string" ? m.version : "" };
}

function label(m: Manifest): string {
  return m.name ? `${m.name}${m.version ? "@" + m.version : ""}` : "the package";
}

/** Package-relative POSIX path (`./bin/x` → `bin/x`); refuses absolute paths and `..` escapes. */
function memberPath(input: string, raw: string, field: string): string {
  const p = posix.normalize(raw.replace(/\\/g, "/"));
  if (p.startsWith("/") || /^[A-Za-z]:/.test(p) || p === ".." || p.startsWith("../") || p === "." || p === "") {
    throw malformed(input, `package.json ${field} "${raw}" does not name a file inside the package`);
  }
  return p.replace(/^\.\//, "");
}

const NOT_A_PROGRAM = /^(readme|license|licence|changelog|changes|history|notice|copying|authors|contributing|security)(\..*)?$/i;
const NON_PROGRAM_EXT = /\.(md|markdown|txt|json|jsonc|d\.ts|d\.mts|d\.cts|ts|map|node|wasm|png|svg|html|css|yml|yaml|lock)$/i;

/** A `files` entry that could be the program: a plain file name (no glob, no directory), not docs/data. */
function executableLooking(entry: string): boolean {
  if (/[*?{}[\]!]/.test(entry) || entry.endsWith("/")) return false;
  const name = posix.basename(entry);
  if (NOT_A_PROGRAM.test(name) || NON_PROGRAM_EXT.test(name)) return false;
  return !name.includes(".") || /\.(exe|js|mjs|cjs)$/i.test(name);
}

/**
 * The program of a package, in npm's order: `bin` (the entry named like the package when several),
 * `main`, the single executable-looking entry of `files` (platform packages such as
 * `@anthropic-ai/claude-code-linux-x64` list only `claude`), else `index.js`.
 */
export function chooseProgram(input: string, m: Manifest): Program {
  const unscoped = m.name.replace(/^@[^/]*\//, "");
  const exact = (member: string, field: string): Program => ({ member, field, candidates: [member] });
  if (typeof m.bin === "string" && m.bin) return exact(memberPath(input, m.bin, "bin"), "bin");
  if (m.bin && typeof m.bin === "object" && !Array.isArray(m.bin)) {
    const entries = Object.entries(m.bin as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === "string" && e[1] !== "",
    );
    const pick = entries.find(([k]) => k === unscoped) ?? entries[0];
    if (pick) return exact(memberPath(input, pick[1], `bin.${pick[0]}`), `bin.${pick[0]}`);
  }
  if (typeof m.main === "string" && m.main) {
    // Node resolves `main` like require(): as given, with an extension added, or as a folder's index.js.
    const main = memberPath(input, m.main, "main").replace(/\/+$/, "");
    return { member: main, field: "main", candidates: [main, `${main}.js`, `${main}.cjs`, `${main}.mjs`, `${main}/index.js`] };
  }
  if (Array.isArray(m.files)) {
    const cands = m.files.filter((f): f is string => typeof f === "string").filter(executableLooking);
    if (cands.length === 1) return exact(memberPath(input, cands[0]!, "files"), "files");
  }
  return exact("index.js", "default index.js");
}

/** The chosen program: the name to report, and the package paths that may hold it, best first. */
interface Program {
  member: string;
  field: string;
  candidates: string[];
}

// ---------------------------------------------------------------------------------------------
// How Node runs the program: CommonJS or ES module

/** A package.json's "type" as Node reads it for the files it scopes; "invalid": not JSON, which Node refuses. */
type ScopeType = "module" | "commonjs" | "none" | "invalid";

function scopeType(bytes: Buffer): ScopeType {
  let json: unknown;
  try {
    json = JSON.parse(stripBom(bytes.toString("utf8")));
  } catch {
    return "invalid";
  }
  const type = json !== null && typeof json === "object" ? (json as { type?: unknown }).type : undefined;
  return type === "module" || type === "commonjs" ? type : "none";
}

/**
 * The "type" that scopes `member`: that of the nearest package.json in its folder or above, up to the
 * package's own (`root`). As Node looks it up, a package.json directly inside a `node_modules` folder ends the
 * search with none. `nested(dir)` is the package.json of a folder below the root (package-relative), if any.
 */
function memberScope(member: string, root: ScopeType, nested: (dir: string) => ScopeType | undefined): ScopeType {
  for (let dir = posix.dirname(member); dir !== "." && dir !== ""; dir = posix.dirname(dir)) {
    if (posix.basename(dir) === "node_modules") return "none";
    const t = nested(dir);
    if (t !== undefined) return t;
  }
  return root;
}

/**
 * The format Node runs the program in (its ES module loader's rules, Node >= 20.19): `.mjs` an ES module and
 * `.cjs` CommonJS; anything else by the scope's "type" ("module": ES module; "commonjs": CommonJS); with no
 * "type", CommonJS unless the code has module syntax (detect-module; `detected` is plain-script.ts's reading).
 */
export function nodeModuleFormat(member: string, scope: ScopeType, detected: ModuleFormat): ModuleFormat {
  const ext = posix.extname(member).toLowerCase();
  if (ext === ".mjs") return "esm";
  if (ext === ".cjs") return "cjs";
  if (scope === "module") return "esm";
  if (scope === "commonjs") return "cjs";
  return detected === "esm" ? "esm" : "cjs";
}

// ---------------------------------------------------------------------------------------------
// Wrapper packages: a placeholder bin plus optionalDependencies on per-platform packages.

function platformPackages(m: Manifest): Map<string, string> {
  const out = new Map<string, string>();
  const deps = m.optionalDependencies;
  if (!m.name || !deps || typeof deps !== "object" || Array.isArray(deps)) return out;
  for (const [dep, ver] of Object.entries(deps as Record<string, unknown>)) {
    const rest = dep.startsWith(m.name + "-") ? dep.slice(m.name.length + 1) : null;
    if (rest && NODE_PLATFORMS.some((p) => rest.startsWith(p + "-"))) out.set(dep, typeof ver === "string" ? ver : "");
  }
  return out;
}

function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report !== undefined && report.header?.glibcVersionRuntime === undefined;
}

/** The platform package for this host, as `name@version`. */
function hostPlatformPackage(m: Manifest, deps: Map<string, string>): string {
  const key = `${m.name}-${process.platform}-${process.arch}`;
  const order = isMusl() ? [key + "-musl", key] : [key];
  const dep = order.find((d) => deps.has(d)) ?? [...deps.keys()][0]!;
  const ver = deps.get(dep) ?? "";
  const exact = /^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(ver) ? ver : m.version;
  return exact ? `${dep}@${exact}` : dep;
}

function wrapperError(input: string, m: Manifest, deps: Map<string, string>, member: string, why: string): UnrecognizedInput {
  return unrecognized(
    input,
    `${label(m)} is a wrapper: its ${member} ${why}; the program lives in the platform package ${hostPlatformPackage(m, deps)} (open that package instead)`,
  );
}

/** Executable magic: ELF, PE (MZ), Mach-O thin (both widths, both byte orders) and fat. */
function isBinaryExecutable(head: Buffer): boolean {
  if (head.length < 4) return false;
  const be = head.readUInt32BE(0);
  return be === 0x7f454c46 || head.readUInt16BE(0) === 0x4d5a || [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(be);
}

/**
 * A launcher placeholder: small, not an executable, not JavaScript (the 2.1.113+ stub is a shell
 * script that prints "native binary not installed" until postinstall copies the real one over it).
 */
function isPlaceholder(bytes: Buffer): boolean {
  if (bytes.length > MAX_PLACEHOLDER || isBinaryExecutable(bytes)) return false;
  if (!isTextHead(bytes)) return true;
  const parsed = parseProgram(stripBom(bytes.toString("utf8")));
  return !(parsed.ok && looksLikeProgram(parsed.program));
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
      const f = failure as { code: string; message: string } | null;
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
interface ArchiveIndex {
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
const FILE_TYPES = new Set(["File", "OldFile", "ContiguousFile"]);

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
function indexTarball(input: string, dir: string): ArchiveIndex {
  const pass = indexPass(input, dir);
  try {
    streamTar(input, pass.onEntry, () => false);
  } finally {
    pass.closeCopies();
  }
  return pass.index();
}

/** indexTarball, decompressing on libuv's pool (streamTarAsync). */
async function indexTarballAsync(input: string, dir: string): Promise<ArchiveIndex> {
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
function copyMember(input: string, dir: string, member: string, index: number): MemberCopy | null {
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
      () => copy !== null && (copy as MemberCopy).done,
    );
  } finally {
    if (copy) closeCopy(copy);
  }
  return copy;
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
  const { read, text, close } = c;
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
