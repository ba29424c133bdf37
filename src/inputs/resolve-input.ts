/**
 * Every command's <input>: a path that exists is used as is (it always wins); an argument that reads as a
 * version spec (version-spec.ts) is resolved through fetch's release cache, downloading what is missing, and
 * which file it became is said through `log` (stderr); anything else is left for the command to report as
 * unreadable. Failures are fetch's: not published → exit 11, npm failing → 12.
 */
import { existsSync, lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";
import type { InputSpec } from "./version-spec.js";

export interface ResolveOptions {
  /** `npm` or a native platform; default as fetch: `npm` up to 2.1.112, the host's platform after. */
  platform?: string;
  /** Release cache (default ~/.cache/searchlift/releases, as fetch). */
  cache?: string;
  /** Whether a range may stand for several inputs (track and lift); elsewhere it is a usage error. */
  ranges?: boolean;
  /** Whether a folder that is not a package stands for the releases in it (track: a versions folder, the cache). */
  folders?: boolean;
  /** The command, for messages. */
  command: string;
  /** One line of progress for the user (stderr). */
  log: (line: string) => void;
}

/** The file one input argument stands for. */
export async function resolveInput(arg: string, opts: ResolveOptions): Promise<string> {
  return (await resolveHashed(arg, opts)).file;
}

/** A file an argument stands for, with its sha256 when fetch has just read it to check its integrity. */
export interface ResolvedInput {
  file: string;
  sha256?: string;
}

/** The file one input argument stands for, and its sha256 when it is a fetched release (not read again for it). */
export async function resolveHashed(arg: string, opts: ResolveOptions): Promise<ResolvedInput> {
  const [resolved] = await resolveArg(arg, { ...opts, ranges: false, folders: false });
  return resolved!;
}

/** The files the input arguments stand for, in order; a range stands for each of its releases. */
export async function resolveInputs(args: string[], opts: ResolveOptions): Promise<string[]> {
  const out: string[] = [];
  for (const arg of args) out.push(...(await resolveArg(arg, opts)).map((r) => r.file));
  return out;
}

async function resolveArg(arg: string, opts: ResolveOptions): Promise<ResolvedInput[]> {
  const st = statOrNull(arg);
  if (st?.isDirectory() && opts.folders && !existsSync(join(arg, "package.json"))) {
    const { listReleases } = await import("./release-folder.js");
    return listReleases(arg).map((file) => ({ file }));
  }
  if (st) return [{ file: arg }];
  // Only an argument that is not on disk needs the registry's side (semver and npm among it).
  const [{ readVersionSpec }, { fetchReleases }] = await Promise.all([import("./version-spec.js"), import("../fetch/fetch.js")]);
  const spec = readVersionSpec(arg);
  if (!spec) return [{ file: arg }];
  if (spec.kind === "range" && !opts.ranges) {
    throw new SearchliftError(`${arg} is a range of releases; ${opts.command} takes one (track and lift take ranges)`, ExitCode.usage);
  }
  const platform = platformOf(spec, opts.platform);
  const r = await fetchReleases(spec.fetchSpec, {
    ...(platform ? { platform } : {}),
    ...(opts.cache ? { cache: opts.cache } : {}),
    // Each file is named below; only downloads, which take a while, are announced as they start.
    progress: (m) => {
      if (m.startsWith("fetching")) opts.log(m);
    },
    warn: opts.log,
  });
  for (const x of r.releases) {
    const named = spec.kind === "exact" && spec.fetchSpec === x.version && !spec.platform ? arg : `${arg}: ${x.version}`;
    opts.log(`${named} (${x.platform}) → ${x.tarball}${x.cached ? " (cached)" : ""}`);
  }
  return r.releases.map((x) => ({ file: x.tarball, ...(x.sha256 ? { sha256: x.sha256 } : {}) }));
}

/** `claude-code-linux-x64@…` names its platform; a different --platform beside it is a contradiction. */
function platformOf(spec: InputSpec, option: string | undefined): string | undefined {
  if (spec.platform && option && spec.platform !== option) {
    throw new SearchliftError(`${spec.text} names platform ${spec.platform} but --platform is ${option}`, ExitCode.usage);
  }
  return spec.platform ?? option;
}

/** What is at `path` (a dangling link counts: it is a path the user named); null where there is nothing. */
function statOrNull(path: string) {
  for (const stat of [statSync, lstatSync]) {
    try {
      return stat(path);
    } catch {
      // try the next, or nothing is there
    }
  }
  return null;
}
