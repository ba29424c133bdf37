import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, parse, resolve, sep } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";
import { listing } from "./listing.js";
import type { Container, ModuleEntry } from "./types.js";
import { jsLiteral } from "../safe-text.js";
import { checkOutput } from "../output-folder.js";

/** Virtual roots that say nothing about the module itself. */
const ROOTS = [/^compiled:\/\/root\//, /^\/\$bunfs\/root\//, /^[A-Za-z]:[\\/]~BUN[\\/]root[\\/]/, /^package\//];

/**
 * A safe relative file path for a virtual module path: roots dropped, no absolute paths, no `..`,
 * no characters a file system may refuse. Untrusted names never escape the output folder.
 */
export function relativeOutputPath(virtualPath: string): string {
  let p = virtualPath;
  for (const r of ROOTS) p = p.replace(r, "");
  const parts = p
    .split(/[\\/]+/)
    .map((s) => s.replace(/[\x00-\x1f:*?"<>|]/g, "_"))
    .filter((s) => s !== "" && s !== "." && s !== "..");
  return parts.length ? parts.join("/") : "module";
}

/**
 * Write every module under `outDir` by virtual path, plus manifest.json. Everything goes into a
 * temporary sibling folder first and is renamed into place at the end, so an interrupted run
 * leaves either the old folder or the new one, never half of one. SIGINT/SIGTERM remove the
 * temporary folder; one left by a killed run (its pid gone) is removed by the next run.
 */
export async function writeModules(c: Container, outDir: string, force: boolean): Promise<{ written: number; bytes: number }> {
  const target = resolve(outDir);
  refuseUnsafeTarget(target, c.input, outDir);
  // A file, a folder of someone else's, or (without --force) an earlier extract is refused, and left as it is.
  checkOutput(outDir, "extract", force);
  const parent = dirname(target);
  removeStaleTemporaries(parent, basename(target));
  let tmp = "";
  // Signal handlers run between our synchronous steps, so tmp is always set once the folder exists.
  const removeOnSignal = onTerminationSignal(() => tmp && rmSync(tmp, { recursive: true, force: true }));
  try {
    mkdirSync(parent, { recursive: true });
    // A fresh folder of our own (mkdtemp, named by our pid for the next run's cleanup): a folder or symlink
    // planted at a predictable name is never written through.
    tmp = mkdtempSync(join(parent, `.${basename(target)}.tmp-${process.pid}-`));
  } catch (e) {
    removeOnSignal();
    throw new SearchliftError(`cannot create output folder: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.output, outDir);
  }
  try {
    const files = await writeInto(tmp, c);
    const l = listing(c);
    const manifest = { ...l, modules: l.modules.map((m, i) => ({ ...m, file: files.paths[i] })) };
    writeFileSync(join(tmp, "manifest.json"), jsLiteral(manifest, 2) + "\n");
    if (existsSync(target)) {
      const old = `${tmp}.old`;
      renameSync(target, old);
      renameSync(tmp, target);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(tmp, target);
    }
    return { written: files.paths.length, bytes: files.bytes };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (e instanceof SearchliftError) throw e;
    throw new SearchliftError(`cannot write output: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.output, outDir);
  } finally {
    removeOnSignal();
  }
}

/** Write the modules under `dir`, yielding to the event loop now and then so that a signal is handled mid-way. */
async function writeInto(dir: string, c: Container): Promise<{ paths: string[]; bytes: number }> {
  const paths: string[] = [];
  const allocator = new PathAllocator();
  let bytes = 0;
  let yielded = Date.now();
  for (const m of c.modules) {
    const rel = allocator.take(relativeOutputPath(m.path));
    const data = contentsForDisk(c, m);
    const dest = join(dir, rel);
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, data);
    bytes += data.length;
    paths.push(rel);
    if (Date.now() - yielded > 50) {
      await new Promise((r) => setImmediate(r));
      yielded = Date.now();
    }
  }
  return { paths, bytes };
}

/**
 * --force replaces the folder wholesale, so refuse one whose removal would take more than the
 * output: the filesystem root, the home folder, the current folder or one of its ancestors, the
 * input itself or a folder holding it.
 */
export function refuseUnsafeTarget(target: string, input: string, shown: string): void {
  const t = realOrResolved(target);
  const refuse = (why: string) => {
    throw new SearchliftError(`refusing to write the output over ${why}`, ExitCode.output, shown);
  };
  if (t === parse(t).root) refuse("the filesystem root");
  if (t === realOrResolved(homedir())) refuse("the home folder");
  const cwd = realOrResolved(process.cwd());
  if (within(cwd, t)) refuse(t === cwd ? "the current folder" : "a folder holding the current folder");
  const inp = realOrResolved(resolve(input));
  if (within(inp, t)) refuse(t === inp ? "the input" : "a folder holding the input");
}

/** Whether `p` is `folder` or lies under it. */
function within(p: string, folder: string): boolean {
  return p === folder || p.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The real path of `p`, through its deepest existing ancestor when `p` itself does not exist yet. */
function realOrResolved(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const up = dirname(abs);
    return up === abs ? abs : join(realOrResolved(up), basename(abs));
  }
}

/** Temporary folders of earlier runs for this output whose process is gone (killed before it could clean up). */
function removeStaleTemporaries(parent: string, name: string): void {
  const prefix = `.${name}.tmp-`;
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return;
  }
  for (const e of entries) {
    if (!e.startsWith(prefix)) continue;
    const m = /^(\d+)-[A-Za-z0-9]{6}(\.old)?$/.exec(e.slice(prefix.length));
    if (m && !alive(Number(m[1]))) rmSync(join(parent, e), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Run `cleanup` and exit as the signal would have (128 + n) on SIGINT/SIGTERM; returns the uninstaller. */
function onTerminationSignal(cleanup: () => void): () => void {
  const handler = (signal: NodeJS.Signals) => {
    cleanup();
    process.exit(128 + (signal === "SIGINT" ? 2 : 15));
  };
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}

/** JS is written as UTF-8 text whatever its stored encoding; assets keep their raw bytes. */
function contentsForDisk(c: Container, m: ModuleEntry): Buffer {
  if (m.kind === "js" && m.encoding !== "utf8" && m.encoding !== "binary") return Buffer.from(c.text(m), "utf8");
  return c.read(m);
}

/** File names are cut to this many UTF-8 bytes, leaving room for a `~N` suffix under the usual 255. */
const MAX_NAME_BYTES = 200;

/** What one output folder holds, by case-folded name: names equal on a case-insensitive disk clash. */
interface Folder {
  taken: Set<string>;
  /** Sub-folders by the folded name a module asked for → the folder given to it. */
  subfolders: Map<string, { name: string; folder: Folder }>;
  /** Next `~N` to try for a folded name, so repeats of one name cost O(1) each. */
  nextSuffix: Map<string, number>;
}

/**
 * Maps module paths to distinct file paths, one folder at a time: a name taken by a file (or a
 * folder) in that folder gets a `~N` suffix. Linear in the total path length, and deterministic:
 * the result depends only on the order of the paths.
 */
export class PathAllocator {
  private root: Folder = newFolder(["manifest.json"]);

  take(rel: string): string {
    const parts = rel.split("/").filter((s) => s !== "" && s !== "." && s !== "..");
    if (parts.length === 0) parts.push("module");
    const out: string[] = [];
    let folder = this.root;
    for (const part of parts.slice(0, -1)) {
      const asked = fold(part);
      let sub = folder.subfolders.get(asked);
      if (!sub) {
        sub = { name: claim(folder, capBytes(part)), folder: newFolder([]) };
        folder.subfolders.set(asked, sub);
      }
      out.push(sub.name);
      folder = sub.folder;
    }
    out.push(claim(folder, capBytes(parts[parts.length - 1]!)));
    return out.join("/");
  }
}

function newFolder(names: string[]): Folder {
  return { taken: new Set(names.map(fold)), subfolders: new Map(), nextSuffix: new Map() };
}

/** `name`, or the first free `name~N`, taken in `folder`. */
function claim(folder: Folder, name: string): string {
  const key = fold(name);
  let chosen = name;
  if (folder.taken.has(key)) {
    let n = folder.nextSuffix.get(key) ?? 2;
    while (folder.taken.has(fold(`${name}~${n}`))) n++;
    folder.nextSuffix.set(key, n + 1);
    chosen = `${name}~${n}`;
  }
  folder.taken.add(fold(chosen));
  return chosen;
}

/** The key under which a case-insensitive, normalizing file system (macOS, Windows) compares names. */
function fold(name: string): string {
  return name.normalize("NFC").toLowerCase();
}

function capBytes(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  let bytes = 0;
  let out = "";
  for (const ch of name) {
    bytes += Buffer.byteLength(ch);
    if (bytes > MAX_NAME_BYTES) break;
    out += ch;
  }
  return out;
}
