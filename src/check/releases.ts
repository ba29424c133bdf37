/**
 * The releases `check` ranks with, each as a lifted module path. A lifted module (a tool-search.mjs, or a
 * folder holding one) is used as is; anything else (a version, `latest`, a package or executable) is resolved
 * as every command's <input> and lifted, verified, into `<cache>/<sha256 of the input>/`, so a rerun reads
 * the module back instead of lifting again.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { defaultCache } from "../cache-dir.js";
import { dirname, join, relative, resolve } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";

export interface ReleaseFlags {
  platform?: string;
  /** Release cache for versions (fetch's). */
  cache?: string;
  /** Where lifted modules are kept (default ~/.cache/searchlift/check). */
  liftCache?: string;
  log: (line: string) => void;
}

/** Written last into a cache folder: the lifted module's path inside it. A folder without it is redone. */
const MARK = "lifted.json";

export function defaultLiftCache(): string {
  return defaultCache("check");
}

/** A lifted module as is: a tool-search.mjs, or a folder holding one; null for anything else. */
export function liftedModuleAt(path: string): string | null {
  if (!existsSync(path)) return null;
  const st = statSync(path);
  if (st.isDirectory()) return existsSync(join(path, "tool-search.mjs")) ? join(path, "tool-search.mjs") : null;
  return path.endsWith(".mjs") && isLiftedModule(path) ? path : null;
}

/** A module exporting the contract's searchTools (lifted modules are small; a bundle is not one). */
function isLiftedModule(path: string): boolean {
  if (statSync(path).size > 4 << 20) return false;
  return /\bexport\s*\{[^}]*\btoolSearch\b/.test(readFileSync(path, "utf8"));
}

/** The releases when --releases is not given: the user's own Claude Code and the latest release. */
export const DEFAULT_RELEASES = ["installed", "latest"];

/**
 * `installed` stands for the newest Claude Code installed here (installs.ts: the versions folder, global npm
 * and bun installs, claude on PATH). With none found, that is said and `latest` stands in for it.
 */
export async function expandInstalled(args: string[], log: (line: string) => void): Promise<string[]> {
  if (!args.includes("installed")) return args;
  const { findInstalls, distinctInstalls, newestInstall } = await import("../inputs/installs.js");
  const search = await findInstalls();
  const newest = newestInstall(distinctInstalls(search.installs));
  if (newest) log(`installed: Claude Code ${newest.version ?? "(version unknown)"} at ${newest.path}`);
  else log(`installed: no Claude Code installation found (looked in ${search.searched.join(", ")}); using latest`);
  const out = args.map((a) => (a === "installed" ? (newest?.path ?? "latest") : a));
  return [...new Set(out)];
}

/**
 * The modules of `args`, in order, two at a time: one release downloads while another is lifted, and two
 * lifts share the cores (a lift alone keeps one busy until its verification starts).
 */
export async function releaseModules(args: readonly string[], flags: ReleaseFlags): Promise<string[]> {
  const distinct = [...new Set(args)];
  const modules = new Map<string, string>();
  // Two arguments may name one release (`latest` and its version): its lift folder is lifted into once.
  const lifts = new Map<string, Promise<string>>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < distinct.length; i = next++) modules.set(distinct[i]!, await releaseModule(distinct[i]!, flags, lifts));
  };
  await Promise.all(Array.from({ length: Math.min(2, distinct.length) }, worker));
  return args.map((a) => modules.get(a)!);
}

async function releaseModule(arg: string, flags: ReleaseFlags, lifts: Map<string, Promise<string>>): Promise<string> {
  const lifted = liftedModuleAt(arg);
  if (lifted) return lifted;
  const { resolveInput } = await import("../inputs/resolve-input.js");
  const input = existsSync(arg)
    ? arg
    : await resolveInput(arg, {
        command: "check",
        log: flags.log,
        ...(flags.platform ? { platform: flags.platform } : {}),
        ...(flags.cache ? { cache: flags.cache } : {}),
      });
  if (!existsSync(input)) throw new SearchliftError("no such file or folder, and not a version", ExitCode.unreadable, arg);
  const hash = await inputHash(input);
  const dir = join(resolve(flags.liftCache ?? defaultLiftCache()), hash);
  let lift = lifts.get(dir);
  if (lift === undefined) {
    lift = liftInto(dir, arg, input, statSync(input).isFile() ? hash : undefined, flags);
    lifts.set(dir, lift);
  }
  return lift;
}

/** The module lifted from `input` into `dir`, or already there. */
async function liftInto(dir: string, arg: string, input: string, inputSha256: string | undefined, flags: ReleaseFlags): Promise<string> {
  const cached = cachedModule(dir);
  if (cached) return cached;
  rmSync(dir, { recursive: true, force: true });
  flags.log(`lifting ${arg} (once; kept in ${dir})`);
  const { liftInput } = await import("../lift/lift.js");
  // Beside the lifts, the verifications they recorded: a release of a routine already lifted reuses its own.
  const verifications = join(dirname(dir), "verifications");
  const r = await liftInput(input, { out: dir, verify: true, verifications, ...(inputSha256 ? { inputSha256 } : {}) });
  writeFileSync(join(dir, MARK), JSON.stringify({ module: relative(dir, r.module) }) + "\n");
  return r.module;
}

function cachedModule(dir: string): string | null {
  try {
    const { module } = JSON.parse(readFileSync(join(dir, MARK), "utf8")) as { module?: unknown };
    const path = typeof module === "string" ? join(dir, module) : "";
    return path && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** sha256 of a file (the lift's provenance records the same), or of a folder's files (relative paths and contents, in sorted order). */
async function inputHash(input: string): Promise<string> {
  const h = createHash("sha256");
  if (!statSync(input).isDirectory()) {
    for await (const chunk of createReadStream(input)) h.update(chunk as Buffer);
    return h.digest("hex");
  }
  for (const file of filesUnder(input)) {
    h.update(`${relative(input, file)}\0`);
    for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  }
  return h.digest("hex");
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}
