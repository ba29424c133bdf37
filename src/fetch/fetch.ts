/**
 * `searchlift fetch`: Claude Code releases from the registry the user's npm is configured for, verified against
 * the registry's integrity and cached by version and platform.
 *
 * Up to 2.1.112 a release is `@anthropic-ai/claude-code` with cli.js (platform `npm`); platform packages
 * `@anthropic-ai/claude-code-<platform>` exist from 2.1.110, and from 2.1.113 the main package is only a wrapper
 * that installs one of them.
 */
import { join } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";
import { terminalSafe as safe } from "../safe-text.js";
import { NpmError, npmView } from "./npm-client.js";
import {
  addAhead,
  defaultCacheDir,
  downloadRelease,
  isPublishTime,
  lookupCached,
  recordPublishTime,
  releaseDir,
  tarballName,
  type AddedAhead,
  type CachedRelease,
  type ReleaseId,
} from "./release-cache.js";
import { compareVersions } from "../release-names.js";
import { parseReleaseSpec, satisfies, type ReleaseSpec } from "./release-range.js";

export const CLIENT_PACKAGE = "@anthropic-ai/claude-code";
export const NATIVE_PLATFORMS = [
  "linux-x64",
  "linux-arm64",
  "linux-x64-musl",
  "linux-arm64-musl",
  "darwin-x64",
  "darwin-arm64",
  "win32-x64",
  "win32-arm64",
] as const;
/** The platform name of the cli.js package. */
export const CLI_JS = "npm";
/** The last release whose main package carries cli.js. */
export const CLI_JS_LAST = "2.1.112";
/** The first release with platform packages. */
export const NATIVE_FIRST = "2.1.110";

export type Era = "cli.js" | "native";

export function eraOf(version: string): Era {
  return compareVersions(version, CLI_JS_LAST) <= 0 ? "cli.js" : "native";
}

export function packageFor(platform: string): string {
  return platform === CLI_JS ? CLIENT_PACKAGE : `${CLIENT_PACKAGE}-${platform}`;
}

/** The host's platform as Claude Code names its packages, or null when no build is made for it. */
export function hostPlatform(): string | null {
  let p = `${process.platform}-${process.arch}`;
  if (process.platform === "linux" && isMusl()) p += "-musl";
  return (NATIVE_PLATFORMS as readonly string[]).includes(p) ? p : null;
}

function isMusl(): boolean {
  try {
    const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
    return !!header && !header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

function checkPlatform(platform: string | undefined): void {
  if (platform === undefined || platform === CLI_JS || (NATIVE_PLATFORMS as readonly string[]).includes(platform)) return;
  throw new SearchliftError(`unknown platform ${platform} (platforms: ${CLI_JS}, ${NATIVE_PLATFORMS.join(", ")})`, ExitCode.usage);
}

export interface FetchOptions {
  /** Cache folder (default ~/.cache/searchlift/releases, under $XDG_CACHE_HOME if set). */
  cache?: string;
  /** `npm` (cli.js) or a native platform; default: `npm` up to 2.1.112, the host's platform after. */
  platform?: string;
  /** Resolve and look in the cache, but download nothing. */
  dryRun?: boolean;
  /** Called before each release is looked at: "fetching 2.1.112 (npm) 1/3…". */
  progress?: (message: string) => void;
  /** Something the user should know that is not a failure (a corrupt cached copy, versions without that platform). */
  warn?: (message: string) => void;
}

export interface FetchedRelease extends Omit<CachedRelease, "sha256"> {
  /** The tarball was in the cache (and still matched its integrity): nothing was downloaded. */
  cached: boolean;
  /** The tarball's sha256 (hex), taken as its integrity was checked; absent from a dry run, which reads nothing. */
  sha256?: string;
}

export interface Skipped {
  version: string;
  platform: string;
  reason: string;
}

export interface FetchResult {
  releases: FetchedRelease[];
  /** Versions of a range that have no build for the platform asked for. */
  skipped: Skipped[];
}

/**
 * Fetch the releases `spec` names (`latest` or another dist-tag, a version, `2.1.100-2.1.112`, `>=2.1.100 <2.1.113`).
 * A version named exactly must exist for the platform; a range takes the versions that do, reporting the rest as
 * skipped. A cached release is checked against the registry's integrity; only when npm cannot reach the
 * registry is a cached exact version served on the integrity recorded when it was downloaded, with a warning.
 */
export async function fetchReleases(spec: string, opts: FetchOptions = {}): Promise<FetchResult> {
  checkPlatform(opts.platform);
  const cache = opts.cache ?? defaultCacheDir();
  const parsed = parseReleaseSpec(spec);
  const { plan, skipped } = await planReleases(parsed, opts.platform);
  if (skipped.length) {
    const shown = skipped.slice(0, 4).map((s) => `${s.version} (${s.reason})`);
    opts.warn?.(
      `skipped ${skipped.length} version${skipped.length > 1 ? "s" : ""} of ${spec}: ${shown.join(", ")}${skipped.length > shown.length ? ", …" : ""}`,
    );
  }

  // npm downloads the first release the cache lacks while it is asked for the integrities below.
  const ahead = opts.dryRun ? undefined : addAhead(cache, plan);
  try {
    return { releases: await fetchPlanned(cache, plan, parsed, opts, ahead), skipped };
  } finally {
    ahead?.cancel();
  }
}

async function fetchPlanned(
  cache: string,
  plan: ReleaseId[],
  parsed: ReleaseSpec,
  opts: FetchOptions,
  ahead: AddedAhead | undefined,
): Promise<FetchedRelease[]> {
  // The registry's integrity of every release, cached or not (one npm view per package): a cached tarball is
  // checked against it, so editing the cache's recorded integrity along with the tarball is noticed.
  let facts;
  try {
    facts = await registryFacts(plan, parsed.kind !== "range");
  } catch (e) {
    // An exact version is planned without the registry; only its integrity needs it.
    const offline = parsed.kind === "exact" && unreachable(e) ? await cachedExact(cache, plan[0]!, opts, e) : null;
    if (offline) return [offline];
    throw e;
  }
  const { integrity, published } = facts;

  // What the cache already holds, verified.
  const found = new Map<ReleaseId, FetchedRelease>();
  for (const id of plan) {
    const hit = await lookupCached(cache, id, integrity.get(key(id)));
    if (hit.status === "hit") found.set(id, { ...hit.release, cached: true });
    else if (hit.status === "corrupt") opts.warn?.(`cached ${id.version} (${id.platform}) is corrupt (${hit.why}); fetching it again`);
  }

  const releases: FetchedRelease[] = [];
  for (const [i, id] of plan.entries()) {
    const step = `${id.version} (${id.platform}) ${i + 1}/${plan.length}`;
    const hit = found.get(id);
    if (hit) {
      opts.progress?.(`cached ${step}`);
      const when = published.get(key(id));
      if (when !== undefined && !opts.dryRun) recordPublishTime(hit.tarball, when);
      releases.push(hit);
      continue;
    }
    const sri = integrity.get(key(id))!;
    if (opts.dryRun) {
      releases.push({
        ...id,
        tarball: join(releaseDir(cache, id.version, id.platform), tarballName(id.package, id.version)),
        integrity: sri,
        cached: false,
      });
      continue;
    }
    opts.progress?.(`fetching ${step}…`);
    const started = ahead?.id === id ? ahead : undefined;
    releases.push({ ...(await downloadRelease(cache, id, sri, published.get(key(id)), started)), cached: false });
  }
  return releases;
}

const key = (id: ReleaseId) => `${id.package}@${id.version}`;

/** npm failed for want of the registry or of npm itself, not because the registry said no. */
function unreachable(e: unknown): boolean {
  return e instanceof NpmError && e.npmCode !== "E404";
}

/**
 * Offline: the cached copy of one release, checked against the integrity recorded when it was downloaded (the
 * registry's cannot be asked), with a warning saying so; null when the cache does not hold it intact.
 */
async function cachedExact(cache: string, id: ReleaseId, opts: FetchOptions, why: unknown): Promise<FetchedRelease | null> {
  const hit = await lookupCached(cache, id);
  if (hit.status !== "hit") return null;
  opts.warn?.(
    `cannot ask the registry (${(why as Error).message}); using the cached ${id.version} (${id.platform}), checked against the integrity recorded when it was fetched`,
  );
  return { ...hit.release, cached: true };
}

/** Which (version, platform) pairs a spec asks for. */
async function planReleases(spec: ReleaseSpec, platform: string | undefined): Promise<{ plan: ReleaseId[]; skipped: Skipped[] }> {
  if (spec.kind === "exact") return { plan: [releaseFor(spec.version, platform)], skipped: [] };
  if (spec.kind === "tag") return { plan: [releaseFor(await versionOfTag(spec.tag), platform)], skipped: [] };

  const host = platform ?? hostPlatform();
  const native = platform === CLI_JS ? null : host;
  // A release may come out for some platforms before the client package has it: the platform's own
  // versions count too.
  const [main, nativeBuilds] = await Promise.all([
    publishedVersions(CLIENT_PACKAGE),
    native ? publishedVersions(packageFor(native), true) : [],
  ]);
  const builds = new Map<string, Set<string>>(native ? [[native, new Set(nativeBuilds)]] : []);
  const versions = [...new Set([...main, ...nativeBuilds])].filter((v) => satisfies(v, spec)).sort(compareVersions);
  if (!versions.length) throw new SearchliftError(`no published version of ${CLIENT_PACKAGE} is in ${spec.text}`, ExitCode.notPublished);
  const plan: ReleaseId[] = [];
  const skipped: Skipped[] = [];
  for (const v of versions) {
    const p = platform ?? (eraOf(v) === "cli.js" ? CLI_JS : host);
    if (p === null) {
      skipped.push({ version: v, platform: `${process.platform}-${process.arch}`, reason: `no build for this host; pass --platform` });
      continue;
    }
    if (p === CLI_JS) {
      if (eraOf(v) === "cli.js") plan.push({ version: v, platform: p, package: CLIENT_PACKAGE });
      else skipped.push({ version: v, platform: p, reason: `from 2.1.113 ${CLIENT_PACKAGE} is a wrapper without cli.js` });
      continue;
    }
    if (!builds.has(p)) builds.set(p, new Set(await publishedVersions(packageFor(p), true)));
    if (builds.get(p)!.has(v)) plan.push({ version: v, platform: p, package: packageFor(p) });
    else skipped.push({ version: v, platform: p, reason: `${packageFor(p)}@${v} is not published` });
  }
  if (!plan.length) {
    throw new SearchliftError(
      `no version in ${spec.text} has a ${platform ?? host ?? "build for this host"} build (${versions.length} published, e.g. ${versions[0]})`,
      ExitCode.notPublished,
    );
  }
  return { plan, skipped };
}

/** The version a dist-tag of the client (`latest`, `stable`, …) names in the registry now. Aborting `abort` stops npm. */
export async function versionOfTag(tag: string, abort?: AbortSignal): Promise<string> {
  const tags = await npmView<Record<string, string>>(CLIENT_PACKAGE, ["dist-tags"], abort).catch(
    notPublishedOn404(`${CLIENT_PACKAGE} is not published`),
  );
  const version = tags && Object.hasOwn(tags, tag) ? tags[tag] : undefined;
  if (typeof version !== "string" || !version)
    throw new SearchliftError(
      `${CLIENT_PACKAGE} has no dist-tag ${tag} (tags: ${Object.keys(tags ?? {}).join(", ")})`,
      ExitCode.notPublished,
    );
  return version;
}

/** The release of `version` for `platform`, or by default its cli.js package up to 2.1.112 and the host's build after. */
export function releaseFor(version: string, platform: string | undefined): ReleaseId {
  let p = platform;
  if (p === undefined) {
    p = eraOf(version) === "cli.js" ? CLI_JS : (hostPlatform() ?? undefined);
    if (p === undefined) {
      throw new SearchliftError(
        `${version} is a native release and ${process.platform}-${process.arch} has no build; pass --platform (${NATIVE_PLATFORMS.join(", ")})`,
        ExitCode.usage,
      );
    }
  }
  if (p === CLI_JS && eraOf(version) === "native") {
    throw new SearchliftError(
      `${version} has no cli.js package: from 2.1.113 ${CLIENT_PACKAGE} is a wrapper; pass --platform (${NATIVE_PLATFORMS.join(", ")})`,
      ExitCode.notPublished,
    );
  }
  return { version, platform: p, package: packageFor(p) };
}

/** `npm view PKG versions`; a package that is not published has none when `missingIsEmpty`. */
async function publishedVersions(pkg: string, missingIsEmpty = false): Promise<string[]> {
  try {
    const v = await npmView<string[] | string>(pkg, ["versions"]);
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  } catch (e) {
    if (missingIsEmpty && e instanceof NpmError && e.npmCode === "E404") return [];
    return notPublishedOn404(`${pkg} is not published`)(e);
  }
}

function notPublishedOn404(message: string) {
  return (e: unknown): never => {
    if (e instanceof NpmError && e.npmCode === "E404") throw new SearchliftError(message, ExitCode.notPublished);
    throw e;
  };
}

interface ViewedVersion {
  version?: string;
  "dist.integrity"?: string;
  "dist.shasum"?: string;
  /** The package's publish time of every version. */
  time?: Record<string, string>;
}

/** What the registry says of each release, keyed `package@version`; one npm view per package. */
interface RegistryFacts {
  integrity: Map<string, string>;
  /** When each was published, where the registry says. */
  published: Map<string, string>;
}

/** One release's answer from the registry. */
interface ReleaseFacts {
  integrity: string;
  published?: string;
}

/** Answers asked for ahead (askRegistryAhead), by `package@version`, each taken once by the fetch that needs it. */
const askedAhead = new Map<string, Promise<ReleaseFacts | undefined>>();

/**
 * Ask the registry now, in one npm view per package, what fetching each of `ids` will need: check fetches two
 * releases at once, and each npm started costs about half a second of CPU while the downloads want the cores.
 * A failure here is nobody's: a release without an answer asks again itself and reports its own error.
 */
export function askRegistryAhead(ids: readonly ReleaseId[]): void {
  const byPackage = new Map<string, string[]>();
  for (const id of ids) {
    if (askedAhead.has(key(id))) continue;
    byPackage.set(id.package, [...new Set([...(byPackage.get(id.package) ?? []), id.version])]);
  }
  for (const [pkg, versions] of byPackage) {
    const answer = viewFacts(pkg, versions).catch(() => new Map<string, ReleaseFacts>());
    for (const version of versions)
      askedAhead.set(
        `${pkg}@${version}`,
        answer.then((facts) => facts.get(`${pkg}@${version}`)),
      );
  }
}

/** The registry's dist.integrity and publish time of each release; one npm view per package not asked ahead. */
async function registryFacts(ids: ReleaseId[], exact: boolean): Promise<RegistryFacts> {
  const integrity = new Map<string, string>();
  const published = new Map<string, string>();
  const take = (k: string, f: ReleaseFacts) => {
    integrity.set(k, f.integrity);
    if (f.published !== undefined) published.set(k, f.published);
  };
  const byPackage = new Map<string, string[]>();
  for (const id of ids) {
    const ahead = askedAhead.get(key(id));
    askedAhead.delete(key(id));
    const answered = ahead && (await ahead);
    if (answered) take(key(id), answered);
    else byPackage.set(id.package, [...(byPackage.get(id.package) ?? []), id.version]);
  }
  await Promise.all(
    [...byPackage].map(async ([pkg, versions]) => {
      let facts: Map<string, ReleaseFacts>;
      try {
        facts = await viewFacts(pkg, versions);
      } catch (e) {
        if (exact && e instanceof NpmError && e.npmCode === "E404") throw await explainMissing(pkg, versions[0]!);
        throw e;
      }
      for (const [k, f] of facts) take(k, f);
      for (const version of versions) {
        if (!integrity.has(`${pkg}@${version}`)) throw new NpmError(`npm view ${pkg}@${version} gave no dist.integrity`, undefined);
      }
    }),
  );
  return { integrity, published };
}

/** `npm view` of `versions` of `pkg`: each version's integrity and publish time, keyed `package@version`. */
async function viewFacts(pkg: string, versions: string[]): Promise<Map<string, ReleaseFacts>> {
  const viewed = await npmView<ViewedVersion | ViewedVersion[]>(`${pkg}@${versions.join(" || ")}`, [
    "version",
    "dist.integrity",
    "dist.shasum",
    "time",
  ]);
  const facts = new Map<string, ReleaseFacts>();
  for (const v of viewed === undefined ? [] : Array.isArray(viewed) ? viewed : [viewed]) {
    const sri = v["dist.integrity"] ?? (v["dist.shasum"] ? `sha1-${Buffer.from(v["dist.shasum"], "hex").toString("base64")}` : undefined);
    if (!v.version || !sri) continue;
    const time = v.time?.[v.version];
    facts.set(`${pkg}@${v.version}`, { integrity: sri, ...(typeof time === "string" && isPublishTime(time) ? { published: time } : {}) });
  }
  return facts;
}

/** Why `pkg@version` is not published: the version does not exist, or not for that platform. */
async function explainMissing(pkg: string, version: string): Promise<SearchliftError> {
  if (pkg !== CLIENT_PACKAGE) {
    const main = await npmView<string>(`${CLIENT_PACKAGE}@${version}`, ["version"]).catch((e: unknown) => {
      if (e instanceof NpmError && e.npmCode === "E404") return undefined;
      throw e;
    });
    if (main) {
      const platform = pkg.slice(CLIENT_PACKAGE.length + 1);
      const hint =
        compareVersions(version, NATIVE_FIRST) < 0
          ? `platform packages start at ${NATIVE_FIRST}; ${version} is a cli.js release: fetch it without --platform`
          : `no ${platform} build was published for it`;
      return new SearchliftError(
        `${version} has no ${platform} package (${pkg}@${version} is not published; ${hint})`,
        ExitCode.notPublished,
      );
    }
  }
  // Not in the client package: it may still be out for some platforms, before the client package has it.
  const others = NATIVE_PLATFORMS.filter((p) => packageFor(p) !== pkg);
  const builds = await Promise.all(others.map(async (p) => (await publishedVersions(packageFor(p), true)).includes(version)));
  const outFor = others.filter((_, i) => builds[i]);
  if (outFor.length)
    return new SearchliftError(
      `${version} has no ${pkg === CLIENT_PACKAGE ? "cli.js" : pkg.slice(CLIENT_PACKAGE.length + 1)} package; it is published for ${outFor.join(", ")} only: pass --platform`,
      ExitCode.notPublished,
    );
  return new SearchliftError(`${version} is not a published version of ${CLIENT_PACKAGE}`, ExitCode.notPublished);
}

export interface ListedVersion {
  version: string;
  era: Era;
  /** `npm` (the cli.js package) and the native platforms with a package of this version. */
  platforms: string[];
}

export interface ReleaseListing {
  /** The package of each platform listed. */
  packages: Record<string, string>;
  distTags: Record<string, string>;
  versions: ListedVersion[];
}

/** Which versions exist for which platform, oldest first; only `platform`'s, and only those in `spec`, if given. */
export async function listReleases(opts: { platform?: string; spec?: string } = {}): Promise<ReleaseListing> {
  checkPlatform(opts.platform);
  const spec = opts.spec === undefined ? undefined : parseReleaseSpec(opts.spec);
  const platforms = opts.platform ? [opts.platform] : [CLI_JS, ...NATIVE_PLATFORMS];
  const natives = platforms.filter((p) => p !== CLI_JS);
  const [main, ...builds] = await Promise.all([
    npmView<{ versions?: string[] | string; "dist-tags"?: Record<string, string> }>(CLIENT_PACKAGE, ["versions", "dist-tags"]).catch(
      notPublishedOn404(`${CLIENT_PACKAGE} is not published`),
    ),
    ...natives.map(async (p) => new Set(await publishedVersions(packageFor(p), true))),
  ]);
  const distTags = main?.["dist-tags"] ?? {};
  const own = main?.versions === undefined ? [] : Array.isArray(main.versions) ? main.versions : [main.versions];
  // Versions published for some platforms only (the client package does not have them yet) are listed too.
  let versions = [...new Set([...own, ...builds.flatMap((b) => [...b])])];
  if (spec?.kind === "exact") versions = versions.filter((v) => v === spec.version);
  else if (spec?.kind === "tag") versions = versions.filter((v) => v === distTags[spec.tag]);
  else if (spec) versions = versions.filter((v) => satisfies(v, spec));
  const rows: ListedVersion[] = [];
  for (const version of [...versions].sort(compareVersions)) {
    const era = eraOf(version);
    const has = [...(platforms.includes(CLI_JS) && era === "cli.js" ? [CLI_JS] : []), ...natives.filter((_, i) => builds[i]!.has(version))];
    if (has.length || !opts.platform) rows.push({ version, era, platforms: has });
  }
  return { packages: Object.fromEntries(platforms.map((p) => [p, packageFor(p)])), distTags, versions: rows };
}

/** The human listing; versions and tags come from the registry and are made terminal-safe. */
export function formatListing(l: ReleaseListing): string {
  const lines = [`${"version".padEnd(10)} ${"era".padEnd(7)} platforms`];
  for (const r of l.versions) lines.push(`${safe(r.version).padEnd(10)} ${r.era.padEnd(7)} ${r.platforms.join(" ") || "(no build)"}`);
  const tags = Object.entries(l.distTags).map(([t, v]) => `${safe(t)}: ${safe(String(v))}`);
  if (tags.length) lines.push(`dist-tags: ${tags.join(", ")}`);
  return lines.join("\n") + "\n";
}
