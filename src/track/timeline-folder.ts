/**
 * The timeline folder holds everything its files name, so it can be moved, zipped or shared whole: each lifted
 * release's module (and its .d.ts) is copied out of the track cache to `modules/<client>/<version>/<platform>/`
 * inside it, and timeline.json names the module by that path relative to the folder (forward slashes) and the
 * input by its file name, never by an absolute path (a home folder, a user name, the cache's place).
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";
import { makeDirInside, pathInside, writeFileAtomic } from "../safe-write.js";
import type { Release } from "./timeline.js";

/** The folder inside the timeline folder that holds the lifted modules. */
export const MODULES_DIR = "modules";

/**
 * `releases` as the timeline folder names them: modules copied from the cache into `outDir` and named relative
 * to it, inputs named by file name. A module that cannot be read is dropped from its release (the report then
 * says "no lifted module") rather than named by a path the folder does not hold.
 */
export function placeModules(releases: Release[], outDir: string): Release[] {
  const taken = new Map<string, string>(); // relative path → the text written there
  return releases.map((r) => {
    const { module, ...rest } = r;
    const portable: Release = { ...rest, input: inputName(r.input) };
    if (!module) return portable;
    let text: string;
    try {
      text = readFileSync(module, "utf8");
    } catch {
      return portable;
    }
    const rel = freePlace(moduleParts(module), text, taken);
    copyModule(module, text, outDir, rel);
    return { ...portable, module: rel.join("/") };
  });
}

/** An input by name, as a lifted module's provenance names it: its file (or folder) name. */
export function inputName(input: string): string {
  return basename(resolve(input));
}

/** `modules/<client>/<version>/<platform>/tool-search.mjs`: the last four parts of the path lift wrote. */
function moduleParts(module: string): string[] {
  return [MODULES_DIR, ...resolve(module).split(sep).slice(-4)];
}

/** The module's place, or beside it (`<platform>~2`, …) when another release with other code took it. */
function freePlace(parts: string[], text: string, taken: Map<string, string>): string[] {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? parts : [...parts.slice(0, 3), `${parts[3]}~${n}`, parts[4]!];
    const key = candidate.join("/");
    const there = taken.get(key);
    if (there === undefined || there === text) {
      taken.set(key, text);
      return candidate;
    }
  }
}

function copyModule(module: string, text: string, outDir: string, rel: string[]): void {
  const target = pathInside(outDir, ...rel);
  const declarations = join(dirname(module), "tool-search.d.ts");
  try {
    makeDirInside(outDir, dirname(target));
    writeFileAtomic(target, text);
    if (existsSync(declarations)) writeFileAtomic(join(dirname(target), "tool-search.d.ts"), readFileSync(declarations));
  } catch (e) {
    if (e instanceof SearchliftError) throw e;
    throw new SearchliftError(`cannot write output: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.output, target);
  }
}
