/**
 * The releases `check` ranks with, each as a lifted module path. A lifted module (a tool-search.mjs, or a
 * folder holding one) is used as is; anything else (a version, `latest`, a package or executable) is resolved
 * as every command's <input> and lifted, verified, into `<cache>/<sha256 of the input>/`, so a rerun reads
 * the module back instead of lifting again; remembered.ts and input-hash.ts spare it the registry and the reading.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { defaultCache } from "../cache-dir.js";
import { dirname, join, relative, resolve } from "node:path";
import * as z from "zod/mini";
import { ExitCode, SearchliftError } from "../errors.js";
import type { ResolvedInput } from "../inputs/resolve-input.js";
import type { InputSpec } from "../inputs/version-spec.js";
import type { OnProgress } from "../progress.js";
import { inputHash } from "../input-hash.js";
import { rememberedRelease, rememberRelease } from "./remembered.js";
import { parseJsonOrNull } from "../schemas/json.js";
import { defaultPack } from "../clients/claude-code.js";

export interface ReleaseFlags {
  platform?: string;
  /** Release cache for versions (fetch's). */
  cache?: string;
  /** Where lifted modules are kept (default ~/.cache/searchlift/check). */
  liftCache?: string;
  /** What the command chose or found, and why a kept lift is redone: notes, shown whatever --quiet says. */
  log: (line: string) => void;
  /** Each release's lift and verification as they go, "release k of n, <arg>: …" (progress, which --quiet silences). */
  onProgress?: OnProgress;
}

/** The progress of the k-th release (of n) named `arg`: the lift's own events, said of that release. */
function releaseProgress(flags: ReleaseFlags, k: number, n: number, arg: string): OnProgress | undefined {
  const { onProgress } = flags;
  const which = n > 1 ? `release ${k} of ${n}, ${arg}` : arg;
  return onProgress && ((e) => onProgress({ ...e, message: `${which}: ${e.message}` }));
}

/** Written last into a cache folder: the lifted module's path inside it. A folder without it is redone. */
const MARK = "lifted.json";
/**
 * What a lift in the cache was made by: a lift made before the module's form changed (its verdict's counts,
 * its ports) is made again rather than reused. Raised whenever lifted modules change in a way check relies on.
 */
const LIFT_FORM = 2;

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
async function expandInstalled(args: readonly string[], log: (line: string) => void): Promise<string[]> {
  if (!args.includes("installed")) return [...new Set(args)];
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
 * lifts share the cores (a lift alone keeps one busy until its verification starts). `installed` is looked for
 * while the registry is asked what each dist-tag names. A release's verifier starts with its lift, not with its
 * download: npm's downloads keep two cores busy on their own, and a corpus made beside them slowed them more
 * than it saved after them.
 */
export async function releaseModules(args: readonly string[], flags: ReleaseFlags): Promise<string[]> {
  const tags = new TagVersions();
  for (const arg of args) tags.lookAhead(arg);
  const distinct = await expandInstalled(args, flags.log);
  await askAboutVersions(distinct, flags);
  const modules = new Map<string, string>();
  // Two arguments may name one release (`latest` and its version): its lift folder is lifted into once.
  const lifts = new Map<string, Promise<string>>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < distinct.length; i = next++) {
      const progress = releaseProgress(flags, i + 1, distinct.length, distinct[i]!);
      modules.set(distinct[i]!, await releaseModule(distinct[i]!, { ...flags, onProgress: progress }, tags, lifts));
    }
  };
  await Promise.all(Array.from({ length: Math.min(2, distinct.length) }, worker));
  return distinct.map((a) => modules.get(a)!);
}

/**
 * The versions check will download are asked of the registry in one npm view (fetch.ts, askRegistryAhead), not one
 * each. A release lifted before needs no registry, and a version it cannot fetch reports that when it is fetched.
 */
async function askAboutVersions(args: readonly string[], flags: ReleaseFlags): Promise<void> {
  const [{ readVersionSpec }, fetch] = await Promise.all([import("../inputs/version-spec.js"), import("../fetch/fetch.js")]);
  const liftCache = resolve(flags.liftCache ?? defaultLiftCache());
  const ids = [];
  for (const arg of args) {
    const spec = existsSync(arg) ? null : releaseSpec(readVersionSpec(arg), flags);
    if (spec?.kind !== "exact") continue;
    try {
      const id = fetch.releaseFor(spec.fetchSpec, spec.platform ?? flags.platform);
      if (!rememberedRelease(liftCache, id.version, id.platform)) ids.push(id);
    } catch {
      // no build of it for this host: fetching it says so
    }
  }
  if (ids.length > 1) fetch.askRegistryAhead(ids);
}

/** What each dist-tag names, asked once a run: `latest` is one version throughout. */
class TagVersions {
  private readonly asked = new Map<string, Promise<string>>();

  /** Ask now for the tag `arg` names, if it names one; its answer, or its failure, is taken later. */
  lookAhead(arg: string): void {
    if (existsSync(arg)) return;
    void import("../inputs/version-spec.js").then(({ readVersionSpec }) => {
      const spec = readVersionSpec(arg);
      if (spec?.kind === "tag") this.version(spec.fetchSpec).catch(() => {});
    });
  }

  version(tag: string): Promise<string> {
    let answer = this.asked.get(tag);
    if (!answer) {
      answer = askTag(tag);
      this.asked.set(tag, answer);
    }
    return answer;
  }
}

/**
 * npm's answer on what `tag` names, unless a connection to the registry fails first (registry-probe.ts): offline,
 * npm would retry for over a minute; then npm is stopped and the run fails in seconds.
 */
async function askTag(tag: string): Promise<string> {
  const [{ versionOfTag }, { assertRegistryReachable }] = await Promise.all([
    import("../fetch/fetch.js"),
    import("../fetch/registry-probe.js"),
  ]);
  const abort = new AbortController();
  const view = versionOfTag(tag, abort.signal);
  // Once the probe has failed, npm's own failure (its stopping) is not the one reported.
  view.catch(() => {});
  const reachable = assertRegistryReachable().catch((e: unknown) => {
    abort.abort();
    throw e;
  });
  return Promise.race([view, reachable.then(() => view)]);
}

async function releaseModule(arg: string, flags: ReleaseFlags, tags: TagVersions, lifts: Map<string, Promise<string>>): Promise<string> {
  const lifted = liftedModuleAt(arg);
  if (lifted) {
    flags.onProgress?.({ stage: "lift", message: "a lifted module, taken as it is" });
    return lifted;
  }
  const liftCache = resolve(flags.liftCache ?? defaultLiftCache());
  const onDisk = existsSync(arg);
  // A release lifted before is read back without the registry or its tarball: the lift cache holds what check uses.
  const release = onDisk ? null : await namedRelease(arg, flags, tags);
  const before = release && rememberedRelease(liftCache, release.version, release.platform);
  const keptIn = before ? join(liftCache, before) : null;
  const remembered = keptIn ? await cachedModule(keptIn, arg, flags.log) : null;
  if (remembered) {
    flags.onProgress?.({ stage: "lift", message: `lifted before, read from ${keptIn}` });
    return remembered;
  }
  // A tag is fetched as the version it named above: it may name another by now.
  const { file: input, sha256: fetchedSha256 } = onDisk
    ? { file: arg, sha256: undefined }
    : await resolveInput(release ? release.fetch : arg, { ...flags, ...(release ? { platform: release.platform } : {}) });
  if (!existsSync(input)) throw new SearchliftError("no such file or folder, and not a version", ExitCode.unreadable, arg);
  const hash = fetchedSha256 ?? (await inputHash(input, liftCache));
  const dir = join(liftCache, hash);
  let lift = lifts.get(dir);
  if (lift === undefined) {
    lift = liftInto(dir, arg, input, statSync(input).isFile() ? hash : undefined, flags);
    lifts.set(dir, lift);
  }
  const module = await lift;
  if (release) rememberRelease(liftCache, release.version, release.platform, hash);
  return module;
}

/** The release a version or dist-tag names now (a tag asks the registry): its version, platform and what to fetch; else null. */
async function namedRelease(
  arg: string,
  flags: ReleaseFlags,
  tags: TagVersions,
): Promise<{ version: string; platform: string; fetch: string } | null> {
  const [{ readVersionSpec }, { releaseFor }] = await Promise.all([import("../inputs/version-spec.js"), import("../fetch/fetch.js")]);
  const spec = releaseSpec(readVersionSpec(arg), flags);
  if (!spec) return null;
  const id = releaseFor(spec.kind === "exact" ? spec.fetchSpec : await tags.version(spec.fetchSpec), spec.platform ?? flags.platform);
  return { version: id.version, platform: id.platform, fetch: spec.kind === "exact" ? arg : id.version };
}

/** A spec that names one release (a version or a tag) for this run's platform; null for a range, or when two
 *  platforms are named at once (resolving the input says so). */
function releaseSpec(spec: InputSpec | null, flags: ReleaseFlags): InputSpec | null {
  if (!spec || spec.kind === "range") return null;
  return spec.platform && flags.platform && spec.platform !== flags.platform ? null : spec;
}

/** A version or tag resolved through fetch's release cache, downloading what is missing, with the tarball's sha256. */
async function resolveInput(arg: string, flags: ReleaseFlags): Promise<ResolvedInput> {
  const { resolveHashed } = await import("../inputs/resolve-input.js");
  return resolveHashed(arg, {
    command: "check",
    log: flags.log,
    ...(flags.platform ? { platform: flags.platform } : {}),
    ...(flags.cache ? { cache: flags.cache } : {}),
  });
}

/** The module lifted from `input` into `dir`, or already there. */
async function liftInto(dir: string, arg: string, input: string, inputSha256: string | undefined, flags: ReleaseFlags): Promise<string> {
  const cached = await cachedModule(dir, arg, flags.log);
  if (cached) {
    flags.onProgress?.({ stage: "lift", message: `lifted before, read from ${dir}` });
    return cached;
  }
  rmSync(dir, { recursive: true, force: true });
  flags.onProgress?.({ stage: "lift", message: `lifting (once; kept in ${dir})` });
  const { liftInput } = await import("../lift/lift.js");
  // Beside the lifts, the verifications they recorded: a release of a routine already lifted reuses its own.
  const verifications = join(dirname(dir), "verifications");
  const r = await liftInput(input, {
    out: dir,
    verify: true,
    pack: await defaultPack(),
    verifications,
    ...(inputSha256 ? { inputSha256 } : {}),
    ...(flags.onProgress ? { onProgress: flags.onProgress } : {}),
  });
  writeFileSync(join(dir, MARK), JSON.stringify({ module: relative(dir, r.module), form: LIFT_FORM }) + "\n");
  return r.module;
}

/**
 * The module kept in `dir`, if it was made in the form this searchlift lifts and its static check still accepts
 * it: a change to the safety check (the text of a port it trusts, a rule) would otherwise refuse, with exit 14,
 * every lift an earlier searchlift kept — in CI, the whole restored cache. Such a lift is made again instead.
 */
async function cachedModule(dir: string, arg: string, log: (line: string) => void): Promise<string | null> {
  const path = markedModule(dir);
  if (!path || !existsSync(path)) return null;
  const { checkedScript } = await import("./rank.js");
  try {
    checkedScript(path);
  } catch (e) {
    if (!(e instanceof SearchliftError) || e.exitCode !== ExitCode.brokenModule) throw e;
    log(`the lift of ${arg} kept in ${dir} is refused by this searchlift's static check (an earlier one made it): lifting again`);
    return null;
  }
  return path;
}

/** The mark a lift kept in check's cache leaves beside its module (the lift's own file, relative to the mark). */
const markSchema = z.object({ module: z.string().check(z.minLength(1)), form: z.literal(LIFT_FORM) });

/** The module the mark in `dir` names, or null when there is no mark of the form this searchlift lifts. */
export function markedModule(dir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(dir, MARK), "utf8");
  } catch {
    return null;
  }
  const mark = parseJsonOrNull(markSchema, text);
  return mark ? join(dir, mark.module) : null;
}
