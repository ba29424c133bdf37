/**
 * `searchlift history`: every release of the tool search's history (plan.ts) fetched, lifted, verified, grouped
 * and explained, into a timeline folder with a changelog (changelog.ts).
 *
 * Disk stays bounded whatever the number of releases: downloads run one at a time, at most `window` releases
 * ahead of the lifts, through an npm cache of our own whose copy is removed as soon as the release cache has
 * its own; a tarball this run downloaded is deleted once its lift (and verification) is recorded, unless `keep`.
 * What a release's lift gave is recorded under `<cache>/history/<platform>/<version>.json` by its tarball's sha256,
 * which keys track's lift cache: a rerun reads those and fetches, lifts and verifies only what is new, so an
 * interrupted run resumes, and one with nothing new asks the registry only for its listing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import * as z from "zod/mini";
import { defaultCache } from "../cache-dir.js";
import { ExitCode, SearchliftError } from "../errors.js";
import { askRegistryAhead, fetchReleases, type Skipped } from "../fetch/fetch.js";
import { npmCacheContent, npmCacheFolder } from "../fetch/npm-client.js";
import { defaultCacheDir, lookupCached, releaseDir, strongestHash, tarballName } from "../fetch/release-cache.js";
import { isPlatform, isVersion } from "../release-names.js";
import { checkOutput } from "../output-folder.js";
import type { OnProgress } from "../progress.js";
import type { RoutinePack } from "../routines/pack.js";
import { writeFileAtomic } from "../safe-write.js";
import { parseJsonOrNull } from "../schemas/json.js";
import { liftHere, readCached, verifyingCount, writeTimeline } from "../track/track.js";
import type { Release, Timeline } from "../track/timeline.js";
import { VERSION } from "../version.js";
import { defaultPack } from "../clients/claude-code.js";
import { changelogMarkdown } from "./changelog.js";
import { cachedPlan, registryPlan, type PlannedRelease } from "./plan.js";

export interface HistoryOptions {
  /** The timeline folder (timeline.json, .md, .html, changelog.md, modules/). */
  out: string;
  /** A RANGE as track reads ranges (`2.1.100-2.1.112`, `>=2.1.300`, a version, a dist-tag); default: the whole history. */
  range?: string;
  /** The native platform after 2.1.112 (default: the host's). */
  platform?: string;
  /** The lift cache, shared with track (default ~/.cache/searchlift/track); history's records go to its `history/`. */
  cache?: string;
  /** The release cache downloads go through (default ~/.cache/searchlift/releases). */
  releaseCache?: string;
  verify: boolean;
  verifyTimeoutS?: number;
  /** Keep the tarballs this run downloads (default: each is deleted once its lift is recorded). */
  keep?: boolean;
  /** Offline: only the releases the release cache holds, nothing asked of the registry. */
  cached?: boolean;
  /** Lifts at once (default: one per core). */
  jobs?: number;
  /** Releases downloaded ahead of the lifts at most (default 3). */
  window?: number;
  /** Also write the changelog here (the repository's docs/tool-search-changelog.md). */
  changelog?: string;
  /** How the changelog says it is regenerated. */
  command?: string;
  onProgress?: OnProgress;
  /** The routine (default: the wiring's, src/clients/claude-code.ts). */
  pack?: RoutinePack;
}

/** Wall seconds spent per stage: fetching or reading releases, lifting (locate, lift and verify: track's liftHere, the sides of a verification in child processes), explaining. */
export interface HistoryTimes {
  reading: number;
  lifting: number;
  explaining: number;
}

export interface HistoryResult {
  timeline: Timeline;
  files: { json: string; markdown: string; html: string; changelog: string };
  /** Releases in the span with no release to take (another platform's only), each with why. */
  skipped: Skipped[];
  /** Releases that were not lifted (their `error` says why). */
  failed: Release[];
  /** Lifted in this run; read from history's records; downloaded (and how many of those deleted). */
  lifted: number;
  recorded: number;
  downloaded: number;
  deleted: number;
  /** The most bytes of downloads (tarballs and npm's copies) on disk at once, from their sizes. */
  peakBytes: number;
  times: HistoryTimes;
  kept?: { out: string; lifted: number; dir: string };
}

/** What history records of a release once its lift is in the lift cache: its tarball, whose sha256 keys the lift. */
const historyRecordSchema = z.object({
  version: z.string(),
  platform: z.string(),
  package: z.string(),
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  tarball: z.string(),
  searchlift: z.string(),
  /** When the registry published it, kept because the release cache's note goes with a deleted tarball. */
  published: z.optional(z.string()),
});
export type HistoryRecord = z.infer<typeof historyRecordSchema>;

export async function history(options: HistoryOptions): Promise<HistoryResult> {
  // The routine: the one given, or the wiring's default (src/clients/claude-code.ts).
  const opts = { ...options, pack: options.pack ?? (await defaultPack()) };
  checkOutput(opts.out, "track");
  const cache = resolve(opts.cache ?? defaultCache("track"));
  const releaseCache = resolve(opts.releaseCache ?? defaultCacheDir());
  mkdirSync(cache, { recursive: true });
  const times: HistoryTimes = { reading: 0, lifting: 0, explaining: 0 };
  const t0 = performance.now();
  const plan = opts.cached
    ? await cachedPlan(
        releaseCache,
        opts.range,
        opts.platform,
        (version, platform) => readRecord(recordFile(join(cache, "history"), version, platform)),
        recordedVersions(join(cache, "history")),
      )
    : await registryPlan(opts.range, opts.platform);
  opts.onProgress?.({
    stage: "history",
    message: `${plan.releases.length} releases, ${plan.skipped.length} without one for this platform`,
  });
  const records = join(cache, "history");
  const releases = new Array<Release>(plan.releases.length);
  const todo: number[] = [];
  plan.releases.forEach((p, i) => {
    const known = recordedRelease(records, cache, p, opts.verify);
    if (known) releases[i] = known;
    else todo.push(i);
  });
  times.reading += (performance.now() - t0) / 1000;
  const recorded = plan.releases.length - todo.length;
  if (recorded)
    opts.onProgress?.({ stage: "history", message: `${recorded} recorded already`, done: recorded, total: plan.releases.length });

  const counts = { lifted: 0, downloaded: 0, deleted: 0, bytes: 0, peakBytes: 0 };
  if (todo.length) {
    const saved = process.env.npm_config_cache;
    // npm's copies of these downloads go to a cache of our own, emptied as each is taken (see fetchOne).
    if (!opts.cached) process.env.npm_config_cache = join(records, "npm-cache");
    try {
      await pipeline(todo, plan.releases, releases, { ...opts, cacheDir: cache, records, releaseCache }, counts, times);
    } finally {
      if (saved === undefined) delete process.env.npm_config_cache;
      else process.env.npm_config_cache = saved;
    }
  }

  const t1 = performance.now();
  let changelog = "";
  const written = await writeTimeline(releases, {
    out: opts.out,
    cache,
    ...(opts.jobs ? { jobs: opts.jobs } : {}),
    pack: opts.pack,
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    extraFiles: (timeline) => {
      changelog = changelogMarkdown(timeline, {
        skipped: plan.skipped,
        platform: plan.platform,
        ...(opts.command ? { command: opts.command } : {}),
      });
      return { "changelog.md": changelog };
    },
  });
  if (opts.changelog) writeFileAtomic(resolve(opts.changelog), changelog);
  times.explaining += (performance.now() - t1) / 1000;
  const dir = written.kept?.dir ?? resolve(opts.out);
  return {
    timeline: written.timeline,
    files: { ...written.files, changelog: join(dir, "changelog.md") },
    skipped: plan.skipped,
    failed: written.failed,
    lifted: counts.lifted,
    recorded,
    downloaded: counts.downloaded,
    deleted: counts.deleted,
    peakBytes: counts.peakBytes,
    times: roundTimes(times),
    ...(written.kept ? { kept: written.kept } : {}),
  };
}

function roundTimes(t: HistoryTimes): HistoryTimes {
  return { reading: round(t.reading), lifting: round(t.lifting), explaining: round(t.explaining) };
}

const round = (s: number) => Math.round(s * 10) / 10;

function recordFile(records: string, version: string, platform: string): string {
  if (!isVersion(version) || !isPlatform(platform))
    throw new SearchliftError(`refusing release ${version} (${platform})`, ExitCode.malformed);
  return join(records, platform, `${version}.json`);
}

/** The versions history has records of, on any platform (cachedPlan takes those of the plan's platforms). */
function recordedVersions(records: string): string[] {
  if (!existsSync(records)) return [];
  return readdirSync(records, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(records, d.name))
        .filter((f) => f.endsWith(".json"))
        .map((f) => f.slice(0, -".json".length)),
    );
}

/** A release's record, or null: one that is missing, does not parse or is of another shape is done again. */
export function readRecord(file: string): HistoryRecord | null {
  try {
    return parseJsonOrNull(historyRecordSchema, readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** The release as history recorded it, with its lift read from the lift cache; null when it must be done (again). */
function recordedRelease(records: string, cache: string, p: PlannedRelease, verify: boolean): Release | null {
  let r: HistoryRecord | null;
  try {
    r = readRecord(recordFile(records, p.version, p.platform));
  } catch {
    return null;
  }
  if (!r || r.searchlift !== VERSION || r.package !== p.package) return null;
  const lifted = readCached(cache, r.sha256, verify);
  return lifted ? { ...lifted, input: r.tarball, ...(p.published ? { published: p.published } : {}) } : null;
}

interface PipelineOptions extends HistoryOptions {
  pack: RoutinePack;
  cacheDir: string;
  records: string;
  releaseCache: string;
}

type Fetched = { tarball: string; sha256: string; downloaded: boolean; bytes: number } | { error: string };

/**
 * Downloads one at a time, at most `window` releases ahead of the lifts; `jobs` lifts at once, in version order.
 * A slot of the window is given back when its release's lift is recorded and its tarball deleted.
 */
async function pipeline(
  todo: number[],
  plan: PlannedRelease[],
  releases: Release[],
  opts: PipelineOptions,
  counts: { lifted: number; downloaded: number; deleted: number; bytes: number; peakBytes: number },
  times: HistoryTimes,
): Promise<void> {
  const window = Math.max(1, opts.window ?? 3);
  const jobs = Math.max(1, Math.min(opts.jobs ?? availableParallelism(), todo.length));
  const fetched = todo.map(() => deferred<Fetched>());
  let free = window;
  let wake: (() => void) | null = null;
  const giveBack = () => {
    free++;
    wake?.();
    wake = null;
  };
  let done = plan.length - todo.length;

  const producer = async () => {
    for (const [k, i] of todo.entries()) {
      while (free === 0) await new Promise<void>((r) => (wake = r));
      free--;
      // The registry's answers for the next few are asked in one npm view per package.
      if (!opts.cached && k % window === 0) askRegistryAhead(todo.slice(k, k + window).map((j) => plan[j]!));
      const t = performance.now();
      const f = await fetchOne(plan[i]!, opts);
      times.reading += (performance.now() - t) / 1000;
      if ("tarball" in f && f.downloaded) {
        counts.downloaded++;
        counts.bytes += f.bytes;
        // npm's copy and ours were both on disk for a moment.
        counts.peakBytes = Math.max(counts.peakBytes, counts.bytes + f.bytes);
      }
      fetched[k]!.resolve(f);
    }
  };

  let next = 0;
  const consumer = async () => {
    for (let k = next++; k < todo.length; k = next++) {
      const i = todo[k]!;
      const p = plan[i]!;
      const f = await fetched[k]!.promise;
      if ("error" in f) {
        releases[i] = {
          input: tarballName(p.package, p.version),
          version: p.version,
          platform: p.platform,
          routineHash: null,
          error: f.error,
          verified: null,
        };
      } else {
        const t = performance.now();
        const cachedLift = readCached(opts.cacheDir, f.sha256, opts.verify);
        const r = cachedLift
          ? { ...cachedLift, input: f.tarball }
          : await liftHere(f.tarball, f.sha256, opts.cacheDir, opts.verify, {
              ...(opts.verifyTimeoutS ? { verifyTimeoutS: opts.verifyTimeoutS } : {}),
              pack: opts.pack,
              onProgress: verifyingCount(p.version, opts.onProgress),
            });
        times.lifting += (performance.now() - t) / 1000;
        if (!cachedLift && r.routineHash !== null) counts.lifted++;
        // The plan's version and platform are the release's, whatever a failed lift could read of them.
        releases[i] = { ...r, version: p.version, platform: p.platform, ...(p.published ? { published: p.published } : {}) };
        // Recorded only once the lift cache holds a definite answer: anything else is tried again next run.
        if (readCached(opts.cacheDir, f.sha256, opts.verify)) {
          const file = recordFile(opts.records, p.version, p.platform);
          mkdirSync(join(file, ".."), { recursive: true });
          const rec: HistoryRecord = {
            version: p.version,
            platform: p.platform,
            package: p.package,
            sha256: f.sha256,
            tarball: tarballName(p.package, p.version),
            searchlift: VERSION,
            ...(p.published ? { published: p.published } : {}),
          };
          writeFileAtomic(file, JSON.stringify(rec, null, 2) + "\n");
          if (f.downloaded && !opts.keep) {
            rmSync(releaseDir(opts.releaseCache, p.version, p.platform), { recursive: true, force: true });
            rmSync(downloadMarker(opts.records, p), { force: true });
            removeIfEmpty(join(opts.releaseCache, p.version));
            counts.deleted++;
            counts.bytes -= f.bytes;
          }
        }
        releases[i].input = tarballName(p.package, p.version);
      }
      giveBack();
      const r = releases[i];
      opts.onProgress?.({
        stage: "history",
        message: `${r.version} (${r.platform}) ${r.error ? `not lifted: ${r.error}` : "lifted"}`,
        done: ++done,
        total: plan.length,
      });
    }
  };
  await Promise.all([producer(), ...Array.from({ length: jobs }, consumer)]);
}

/** The release's tarball in the release cache, fetched (and checked against the registry) when not there. */
async function fetchOne(p: PlannedRelease, opts: PipelineOptions): Promise<Fetched> {
  try {
    if (opts.cached) {
      const hit = await lookupCached(opts.releaseCache, p);
      if (hit.status !== "hit")
        return { error: hit.status === "corrupt" ? `the cached copy is damaged (${hit.why})` : "not in the release cache" };
      return { tarball: hit.release.tarball, sha256: hit.release.sha256, downloaded: false, bytes: 0 };
    }
    const r = await fetchReleases(p.version, { cache: opts.releaseCache, platform: p.platform });
    const got = r.releases[0]!;
    if (!got.sha256) throw new SearchliftError("fetch gave no sha256", ExitCode.internal);
    // A download of ours is marked until its tarball is deleted: one a killed run left behind is still ours to delete.
    const marker = downloadMarker(opts.records, p);
    if (!got.cached) {
      await dropNpmCopy(got.integrity);
      mkdirSync(join(marker, ".."), { recursive: true });
      writeFileAtomic(marker, `${got.tarball}\n`);
    }
    const ours = !got.cached || existsSync(marker);
    return { tarball: got.tarball, sha256: got.sha256, downloaded: ours, bytes: ours ? statSync(got.tarball).size : 0 };
  } catch (e) {
    if (!(e instanceof SearchliftError)) throw e;
    return { error: `not fetched: ${e.message}` };
  }
}

/** The version's folder of the release cache, once its last platform is gone. */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // another platform of the version is still there, or it is gone already
  }
}

/** The mark of a tarball history downloaded and has not deleted yet. */
function downloadMarker(records: string, p: PlannedRelease): string {
  return recordFile(records, p.version, p.platform).replace(/\.json$/, ".downloaded");
}

/** Remove npm's cached copy of the content with this integrity (the release cache holds its own now). */
async function dropNpmCopy(integrity: string): Promise<void> {
  const want = strongestHash(integrity);
  if (!want) return;
  const file = npmCacheContent(await npmCacheFolder(), want.algorithm, Buffer.from(want.digest, "base64").toString("hex"));
  if (existsSync(file)) rmSync(file, { force: true });
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
