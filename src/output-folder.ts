/**
 * `--out` is checked before any work: every command that writes takes a folder that does not exist yet, an
 * empty one, or its own earlier output, recognised by what it holds — extract's manifest.json and the files it
 * names, track's timeline files, lift's `<client>/<version>/<platform>/<routine>.mjs` tree, diff's `a/` and `b/`
 * lift trees. A file, or a folder holding anything searchlift did not write there, is refused (exit 6) and left
 * as it is; `--force` (extract) replaces only a folder of its own.
 */
import { readdirSync, readFileSync, statSync, lstatSync, type Dirent } from "node:fs";
import { join, relative, sep } from "node:path";
import * as z from "zod/mini";
import { ExitCode, SearchliftError } from "./errors.js";
import { quoted } from "./safe-text.js";
import { checkShape } from "./schemas/json.js";

export type OutputCommand = "extract" | "lift" | "track" | "diff";

/** What is at `--out`, as the command will treat it. */
export type OutputState = "absent" | "empty" | "own";

/** What track writes at the top of its folder (history adds its changelog.md). */
const TIMELINE_ENTRIES = new Set(["timeline.json", "timeline.md", "timeline.html", "modules", "changelog.md"]);

/** A temporary of an interrupted write (safe-write.ts, write-modules.ts): ours, whoever's process made it. */
const TEMPORARY = /\.tmp-\d+/;

/**
 * Refuse (exit 6, one line) an `--out` that is a file or a folder that is not `command`'s own earlier output;
 * say what is there. `force`: extract's --force, which may replace its own earlier output (only that).
 */
export function checkOutput(out: string, command: OutputCommand, force = false): OutputState {
  const refuse = (why: string): never => {
    throw new SearchliftError(why, ExitCode.output, out);
  };
  let st;
  try {
    st = statSync(out);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") refuse(`cannot use --out: ${code ?? String(e)}`);
    // A dangling link is something the user has there: not replaced.
    if (lstatOrNull(out)) refuse(`--out is a link to nothing; nothing was written (name a new or empty folder)`);
    return "absent";
  }
  if (!st.isDirectory())
    refuse(`--out is a file, not a folder; nothing was written and the file is left as it is (name a new or empty folder)`);
  let names: string[];
  try {
    names = readdirSync(out).filter((n) => !TEMPORARY.test(n));
  } catch (e) {
    return refuse(`cannot read the --out folder: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  if (names.length === 0) return "empty";
  const other = otherCommand(out, names, command);
  const foreign = strayEntry(out, names, command);
  if (foreign !== null) {
    if (other) refuse(`--out holds ${other}'s output, not ${command}'s; nothing was written (name another folder)`);
    refuse(
      `--out is a folder searchlift did not write (it holds ${quoted(foreign)}); nothing was written (name a new or empty folder${command === "extract" ? "; --force replaces only an earlier extract" : ""})`,
    );
  }
  if (command === "extract" && !force) refuse(`output folder exists and holds an earlier extract (use --force to replace it)`);
  return "own";
}

/** The first entry of the folder `command` did not write, or null when everything there is its own. */
function strayEntry(dir: string, names: string[], command: OutputCommand): string | null {
  switch (command) {
    case "track": {
      const stray = names.find((n) => !TIMELINE_ENTRIES.has(n));
      if (stray !== undefined) return stray;
      return isTimeline(dir) ? null : names[0]!;
    }
    case "lift":
      return strayInLiftTree(dir, 0);
    case "diff": {
      const stray = names.find((n) => n !== "a" && n !== "b");
      if (stray !== undefined) return stray;
      for (const n of names) {
        if (!isDir(join(dir, n))) return n;
        const inner = strayInLiftTree(join(dir, n), 0);
        if (inner !== null) return `${n}/${inner}`;
      }
      return null;
    }
    case "extract":
      return strayInExtract(dir, names);
  }
}

/** lift writes `<client>/<version>/<platform>/<routine>.mjs` and its `.d.ts`: folders three deep, files below. */
function strayInLiftTree(dir: string, depth: number): string | null {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return ".";
  }
  for (const e of entries) {
    if (TEMPORARY.test(e.name)) continue;
    const ok = depth < 3 ? e.isDirectory() : e.isFile() && /\.(mjs|d\.ts)$/.test(e.name);
    if (!ok) return e.name;
    if (depth < 3) {
      const inner = strayInLiftTree(join(dir, e.name), depth + 1);
      if (inner !== null) return `${e.name}/${inner}`;
    }
  }
  return null;
}

/** extract's manifest.json as far as this check reads it: the files it wrote. */
const manifestSchema = z.looseObject({ modules: z.array(z.looseObject({ file: z.string() })) });

/** track's timeline.json as far as these checks read it; a release with a routine hash was lifted. */
const timelineSchema = z.looseObject({ releases: z.array(z.unknown()), groups: z.array(z.unknown()) });
const releasesSchema = z.looseObject({ releases: z.array(z.unknown()) });
const liftedRelease = z.looseObject({ routineHash: z.string() });

/** The JSON value of `file` in `dir`, or null when it cannot be read or does not parse. */
function readJson(dir: string, file: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(readFileSync(join(dir, file), "utf8")) as unknown };
  } catch {
    return null;
  }
}

/** extract writes manifest.json and the files it names, nothing else. */
function strayInExtract(dir: string, names: string[]): string | null {
  const read = readJson(dir, "manifest.json");
  if (!read) return names[0]!;
  const manifest = checkShape(manifestSchema, read.value);
  if (!manifest.ok) return "manifest.json";
  const files = new Set(manifest.value.modules.map((m) => m.file));
  files.add("manifest.json");
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isDirectory()) continue;
    const rel = relative(dir, join(e.parentPath, e.name)).split(sep).join("/");
    if (!files.has(rel) && !TEMPORARY.test(rel)) return rel;
  }
  return null;
}

function isTimeline(dir: string): boolean {
  const read = readJson(dir, "timeline.json");
  return read !== null && checkShape(timelineSchema, read.value).ok;
}

/** Which other command wrote this folder, if one did (for a clearer refusal). */
function otherCommand(dir: string, names: string[], command: OutputCommand): OutputCommand | null {
  for (const other of ["track", "extract", "diff", "lift"] as const)
    if (other !== command && strayEntry(dir, names, other) === null) return other;
  return null;
}

function isDir(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** How many releases a timeline folder's timeline.json has lifted; null when there is none to read. */
export function liftedInTimeline(dir: string): number | null {
  const read = readJson(dir, "timeline.json");
  const t = read && checkShape(releasesSchema, read.value);
  return t?.ok ? t.value.releases.filter((r) => checkShape(liftedRelease, r).ok).length : null;
}
