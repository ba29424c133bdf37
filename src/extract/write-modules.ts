import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";
import { listing } from "./listing.js";
import type { Container, ModuleEntry } from "./types.js";

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
 * leaves either the old folder or the new one, never half of one.
 */
export function writeModules(c: Container, outDir: string, force: boolean): { written: number; bytes: number } {
  const target = resolve(outDir);
  if (existsSync(target) && !force) {
    throw new SearchliftError(`output folder exists (use --force to replace it)`, ExitCode.output, outDir);
  }
  const parent = dirname(target);
  let tmp: string;
  try {
    mkdirSync(parent, { recursive: true });
    // A fresh folder of our own (mkdtemp): a folder or symlink planted at a predictable name is never written through.
    tmp = mkdtempSync(join(parent, `.${basename(target)}.tmp-`));
  } catch (e) {
    throw new SearchliftError(`cannot create output folder: ${(e as NodeJS.ErrnoException).code ?? e}`, ExitCode.output, outDir);
  }
  let bytes = 0;
  const files: string[] = [];
  const paths = new PathAllocator();
  try {
    for (const m of c.modules) {
      const rel = paths.take(relativeOutputPath(m.path));
      const data = contentsForDisk(c, m);
      const dest = join(tmp, rel);
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, data);
      bytes += data.length;
      files.push(rel);
    }
    const l = listing(c);
    const manifest = { ...l, modules: l.modules.map((m, i) => ({ ...m, file: files[i] })) };
    writeFileSync(join(tmp, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
    if (existsSync(target)) {
      const old = `${tmp}.old`;
      renameSync(target, old);
      renameSync(tmp, target);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(tmp, target);
    }
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (e instanceof SearchliftError) throw e;
    throw new SearchliftError(`cannot write output: ${(e as NodeJS.ErrnoException).code ?? e}`, ExitCode.output, outDir);
  }
  return { written: files.length, bytes };
}

/** JS is written as UTF-8 text whatever its stored encoding; assets keep their raw bytes. */
function contentsForDisk(c: Container, m: ModuleEntry): Buffer {
  if (m.kind === "js" && m.encoding !== "utf8" && m.encoding !== "binary") return Buffer.from(c.text(m), "utf8");
  return c.read(m);
}

/** Two virtual paths can map to one file (or a file and a folder of the same name): number the later ones. */
class PathAllocator {
  private files = new Set<string>(["manifest.json"]);
  private dirs = new Set<string>();

  take(rel: string): string {
    let p = rel;
    for (let i = 2; this.clashes(p); i++) p = `${rel}~${i}`;
    this.files.add(p);
    for (const d of prefixes(p)) this.dirs.add(d);
    return p;
  }

  private clashes(p: string): boolean {
    if (this.files.has(p) || this.dirs.has(p)) return true;
    for (const d of prefixes(p)) if (this.files.has(d)) return true;
    return false;
  }
}

function* prefixes(p: string): Generator<string> {
  const parts = p.split("/");
  for (let i = 1; i < parts.length; i++) yield parts.slice(0, i).join("/");
}
