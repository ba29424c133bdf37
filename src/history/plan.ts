/**
 * Which releases `searchlift history` covers: every published version from the first with a tool search, one
 * release each — the cli.js package up to 2.1.112, one native build (the host's platform, or --platform) after.
 * Asked of the registry in two `npm view`s (the client package and the platform's package, each with its versions
 * and publish times), plus one per other platform only when some version has no build for the chosen one; or,
 * offline (`cached`), read from the release cache alone.
 */
import { existsSync, readdirSync } from "node:fs";
import { ExitCode, SearchliftError } from "../errors.js";
import { CLI_JS, CLIENT_PACKAGE, eraOf, hostPlatform, NATIVE_PLATFORMS, packageFor, type Skipped } from "../fetch/fetch.js";
import { NpmError, npmView } from "../fetch/npm-client.js";
import { parseReleaseSpec, satisfies, type ReleaseSpec } from "../fetch/release-range.js";
import { compareVersions, isVersion } from "../release-names.js";
import { isPublishTime, recordedPublishTime, releaseDir, tarballName, type ReleaseId } from "../fetch/release-cache.js";
import { join } from "node:path";

/** The first release whose client has a tool search (MCPSearch, 2.0.70; docs/tool-search-history.md). */
export const FIRST_TOOL_SEARCH = "2.0.70";

export interface PlannedRelease extends ReleaseId {
  /** When the registry published it (ISO 8601), where known. */
  published?: string;
}

export interface HistoryPlan {
  releases: PlannedRelease[];
  /** Versions in the span with no release for the platform asked for, or (offline) not in the release cache. */
  skipped: Skipped[];
  /** The native platform of the span after 2.1.112 (null when the host has no build and none was chosen). */
  platform: string | null;
}

/** The versions a RANGE asks for (track's grammar: a version, `a-b`, a comparator set, a dist-tag); all when absent. */
function inSpan(spec: ReleaseSpec | undefined, tags: Record<string, string>): (v: string) => boolean {
  const first = (v: string) => compareVersions(v, FIRST_TOOL_SEARCH) >= 0;
  if (!spec) return first;
  if (spec.kind === "exact") return (v) => v === spec.version && first(v);
  if (spec.kind === "tag") {
    const tagged = tags[spec.tag];
    if (!tagged) throw new SearchliftError(`${CLIENT_PACKAGE} has no dist-tag ${spec.tag}`, ExitCode.notPublished);
    return (v) => v === tagged && first(v);
  }
  return (v) => satisfies(v, spec) && first(v);
}

function checkPlatform(platform: string | undefined): void {
  if (platform === undefined || (NATIVE_PLATFORMS as readonly string[]).includes(platform)) return;
  throw new SearchliftError(
    `unknown platform ${platform} for history (native platforms: ${NATIVE_PLATFORMS.join(", ")}; up to 2.1.112 the cli.js package is taken)`,
    ExitCode.usage,
  );
}

interface Viewed {
  versions?: string[] | string;
  time?: Record<string, string>;
  "dist-tags"?: Record<string, string>;
}

async function view(pkg: string, fields: string[], missingIsEmpty: boolean): Promise<Viewed> {
  try {
    return (await npmView<Viewed>(pkg, fields)) ?? {};
  } catch (e) {
    if (missingIsEmpty && e instanceof NpmError && e.npmCode === "E404") return {};
    if (e instanceof NpmError && e.npmCode === "E404") throw new SearchliftError(`${pkg} is not published`, ExitCode.notPublished);
    throw e;
  }
}

const list = (v: Viewed["versions"]) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const when = (time: Viewed["time"], v: string) => {
  const t = time?.[v];
  return typeof t === "string" && isPublishTime(t) ? { published: t } : {};
};

/** The span's releases as the registry lists them now. */
export async function registryPlan(range: string | undefined, platform?: string): Promise<HistoryPlan> {
  checkPlatform(platform);
  const spec = range === undefined ? undefined : parseReleaseSpec(range);
  const native = platform ?? hostPlatform();
  const [main, builds] = await Promise.all([
    view(CLIENT_PACKAGE, ["versions", "time", "dist-tags"], false),
    native ? view(packageFor(native), ["versions", "time"], true) : Promise.resolve<Viewed>({}),
  ]);
  const wanted = inSpan(spec, main["dist-tags"] ?? {});
  const nativeVersions = new Set(list(builds.versions));
  // A version out for some platforms before the client package lists it counts too.
  const versions = [...new Set([...list(main.versions), ...nativeVersions])].filter(wanted).sort(compareVersions);
  const releases: PlannedRelease[] = [];
  const missing: string[] = [];
  for (const version of versions) {
    if (eraOf(version) === "cli.js") releases.push({ version, platform: CLI_JS, package: CLIENT_PACKAGE, ...when(main.time, version) });
    else if (native && nativeVersions.has(version))
      releases.push({ version, platform: native, package: packageFor(native), ...when(builds.time, version) });
    else missing.push(version);
  }
  const skipped = await whyMissing(missing, native);
  if (!releases.length && !skipped.length)
    throw new SearchliftError(
      `no published version of ${CLIENT_PACKAGE} with a tool search is in ${range ?? "the registry"}`,
      ExitCode.notPublished,
    );
  return { releases, skipped, platform: native };
}

/** Versions with no build for `native`: which platforms have one (asked only when there are such versions). */
async function whyMissing(missing: string[], native: string | null): Promise<Skipped[]> {
  if (!missing.length) return [];
  const host = `${process.platform}-${process.arch}`;
  if (!native) return missing.map((version) => ({ version, platform: host, reason: "no build for this host; pass --platform" }));
  const others = NATIVE_PLATFORMS.filter((p) => p !== native);
  const lists = await Promise.all(others.map(async (p) => new Set(list((await view(packageFor(p), ["versions"], true)).versions))));
  return missing.map((version) => {
    const outFor = others.filter((_, i) => lists[i]!.has(version));
    return {
      version,
      platform: native,
      reason: outFor.length ? `published for ${outFor.join(", ")} only` : `no ${native} build was published`,
    };
  });
}

/**
 * Offline: the span's releases that the release cache holds (checked against the integrity recorded when each
 * was fetched), without asking the registry anything. Versions the cache lacks are unknown here, not skipped.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a failure rejects, as its callers expect
export async function cachedPlan(
  releaseCache: string,
  range: string | undefined,
  platform?: string,
  recorded: (version: string, platform: string) => { published?: string | undefined } | null = () => null,
  recordedVersions: readonly string[] = [],
): Promise<HistoryPlan> {
  checkPlatform(platform);
  const spec = range === undefined ? undefined : parseReleaseSpec(range);
  if (spec?.kind === "tag") throw new SearchliftError(`a dist-tag (${spec.tag}) needs the registry: drop --cached`, ExitCode.usage);
  const native = platform ?? hostPlatform();
  const wanted = inSpan(spec, {});
  const cached = existsSync(releaseCache) ? readdirSync(releaseCache) : [];
  const versions = [...new Set([...cached, ...recordedVersions])].filter((v) => isVersion(v) && wanted(v));
  const releases: PlannedRelease[] = [];
  for (const version of versions.sort(compareVersions)) {
    const p = eraOf(version) === "cli.js" ? CLI_JS : native;
    if (p === null) continue;
    const id = { version, platform: p, package: packageFor(p) };
    // Only whether it is there, or was lifted and recorded (its tarball deleted since): its integrity is checked
    // when it is lifted (a rerun with its lift recorded reads nothing).
    const tarball = join(releaseDir(releaseCache, version, p), tarballName(id.package, version));
    const record = existsSync(tarball) ? null : recorded(version, p);
    if (!existsSync(tarball) && !record) continue;
    const published = record ? record.published : recordedPublishTime(tarball);
    releases.push({ ...id, ...(published ? { published } : {}) });
  }
  if (!releases.length)
    throw new SearchliftError(
      `the release cache ${releaseCache} holds no release with a tool search in ${range ?? "any version"}`,
      ExitCode.notPublished,
    );
  return { releases, skipped: [], platform: native };
}
