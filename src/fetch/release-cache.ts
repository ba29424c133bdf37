/**
 * The release cache: `<cache>/<version>/<platform>/<tarball>` plus `release.json` (package, version, platform,
 * tarball, the registry's integrity). A release is downloaded into a temporary folder inside the cache, its
 * hash checked against the registry's `dist.integrity`, and only then renamed into place, so the cache never
 * holds a partial or unverified tarball. A cached tarball is hashed again on every use; one that no longer
 * matches its recorded integrity, or the registry's when the caller asked the registry, is reported as corrupt
 * (and fetched again by the caller).
 */
import {
  constants as fsConstants,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { copyFile } from "node:fs/promises";
import * as z from "zod/mini";
import { defaultCache } from "../cache-dir.js";
import { digestsInBackground } from "../file-digests.js";
import { basename, dirname, join } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";
import { isPlatform, isVersion } from "../release-names.js";
import { quoted } from "../safe-text.js";
import { writeFileAtomic } from "../safe-write.js";
import { parseJsonOrNull } from "../schemas/json.js";
import { npmCacheAdd, npmCacheContent, npmCacheFolder, npmPack } from "./npm-client.js";

export const RELEASE_META = "release.json";

export interface ReleaseId {
  version: string;
  /** `npm` for the cli.js package, else a native platform such as `linux-x64`. */
  platform: string;
  /** The npm package holding it. */
  package: string;
}

export interface CachedRelease extends ReleaseId {
  /** Absolute path of the verified tarball. */
  tarball: string;
  /** The registry's dist.integrity, which the tarball matches (SRI, `sha512-…`). */
  integrity: string;
  /** The tarball's sha256 (hex), taken as its integrity was checked. */
  sha256: string;
}

export function defaultCacheDir(): string {
  return defaultCache("releases");
}

/** `<cache>/<version>/<platform>`; both parts come from the registry or the user and must be folder-safe. */
export function releaseDir(cache: string, version: string, platform: string): string {
  if (!isVersion(version)) throw new SearchliftError(`refusing version ${quoted(version)}: not a semver version`, ExitCode.malformed);
  if (!isPlatform(platform)) throw new SearchliftError(`refusing platform ${quoted(platform)}: not a known platform`, ExitCode.malformed);
  return join(cache, version, platform);
}

/** The file name npm pack gives a package's tarball: `@scope/name` → `scope-name-VERSION.tgz`. */
export function tarballName(pkg: string, version: string): string {
  return `${pkg.replace(/^@/, "").replace(/\//g, "-")}-${version}.tgz`;
}

const ALGORITHMS = ["sha512", "sha384", "sha256", "sha1"] as const;

/** The strongest hash of an SRI string (`sha512-… sha1-…`) that we can compute. */
export function strongestHash(sri: string): { algorithm: string; digest: string } | null {
  const entries = sri
    .trim()
    .split(/\s+/)
    .map((e) => /^([a-z0-9]+)-([A-Za-z0-9+/=]+)(\?.*)?$/.exec(e))
    .filter((m): m is RegExpExecArray => !!m);
  for (const a of ALGORITHMS) {
    const m = entries.find((e) => e[1] === a);
    if (m) return { algorithm: a, digest: m[2]! };
  }
  return null;
}

/**
 * Whether the file matches the SRI string; `actual` is the file's hash in the algorithm compared, and `sha256`
 * its sha256 (hex), taken in the same pass: what check keys its lifts by, without reading 130 MB again.
 */
export async function checkIntegrity(file: string, sri: string): Promise<{ ok: boolean; actual: string; sha256: string }> {
  const want = strongestHash(sri);
  if (!want) throw new SearchliftError(`cannot check integrity "${sri}": no sha512, sha384, sha256 or sha1 hash`, ExitCode.integrity);
  // On a worker thread: check hashes two releases' tarballs at once, beside whatever else it is doing.
  const [digest, sha256] = await digestsInBackground(file, [want.algorithm, "sha256"]).result;
  const actual = `${want.algorithm}-${Buffer.from(digest!, "hex").toString("base64")}`;
  return { ok: actual === `${want.algorithm}-${want.digest}`, actual, sha256: sha256! };
}

/**
 * release.json beside a cached tarball, as fetch writes it: the release, the tarball's file name and the registry's
 * integrity, and when known its publish time. Other fields are kept (a date is added to it in place).
 */
const releaseMetaSchema = z.looseObject({
  package: z.string(),
  version: z.string(),
  platform: z.string(),
  tarball: z.string(),
  integrity: z.string(),
});

/** The part of release.json that says when the registry published it. */
const datedMetaSchema = z.object({ tarball: z.string(), published: z.string().check(z.refine(isPublishTime)) });

export type CacheLookup = { status: "hit"; release: CachedRelease } | { status: "missing" } | { status: "corrupt"; why: string };

/**
 * The cached release, verified by hashing its tarball against the registry's integrity `registry` when given
 * (what decides then), else against the one recorded when it was fetched.
 */
export async function lookupCached(cache: string, id: ReleaseId, registry?: string): Promise<CacheLookup> {
  const dir = releaseDir(cache, id.version, id.platform);
  const metaFile = join(dir, RELEASE_META);
  if (!existsSync(dir)) return { status: "missing" };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(metaFile, "utf8"));
  } catch {
    return { status: "corrupt", why: `${RELEASE_META} is missing or unreadable` };
  }
  const r = releaseMetaSchema.safeParse(value);
  const meta = r.success ? r.data : null;
  if (!meta || meta.version !== id.version || meta.platform !== id.platform || meta.package !== id.package) {
    return { status: "corrupt", why: `${RELEASE_META} does not describe ${id.package}@${id.version}` };
  }
  // The recorded name is only ever the one we gave: anything else would read a file outside the release's folder.
  if (meta.tarball !== tarballName(id.package, id.version)) return { status: "corrupt", why: `${RELEASE_META} names another tarball` };
  const tarball = join(dir, meta.tarball);
  if (!existsSync(tarball)) return { status: "corrupt", why: `${meta.tarball} is missing` };
  const want = registry ?? meta.integrity;
  const { ok, sha256 } = await checkIntegrity(tarball, want);
  if (!ok) return { status: "corrupt", why: `${meta.tarball} does not match ${registry ? "the registry's" : "its recorded"} integrity` };
  return { status: "hit", release: { ...id, tarball, integrity: want, sha256 } };
}

/** An ISO 8601 time as registries write publish times (`2026-05-15T07:22:18.436Z`, or with `+00:00`). */
export function isPublishTime(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(s);
}

/**
 * When the registry published a release that fetch cached: the `published` of the release.json beside the
 * tarball (written from the registry at download). Null where unknown: another file, an older cache entry.
 */
export function recordedPublishTime(tarball: string): string | null {
  let meta: z.infer<typeof datedMetaSchema> | null;
  try {
    meta = parseJsonOrNull(datedMetaSchema, readFileSync(join(dirname(tarball), RELEASE_META), "utf8"));
  } catch {
    return null;
  }
  return meta?.tarball === basename(tarball) ? meta.published : null;
}

/**
 * Record when the registry published a cached release whose release.json has no date yet (fetched before dates
 * were recorded, or offline). Written beside it and renamed over it; a cache that cannot be written keeps no date.
 */
export function recordPublishTime(tarball: string, published: string): void {
  if (!isPublishTime(published) || recordedPublishTime(tarball) !== null) return;
  const metaFile = join(dirname(tarball), RELEASE_META);
  try {
    const meta = parseJsonOrNull(z.looseObject({ tarball: z.string() }), readFileSync(metaFile, "utf8"));
    if (meta?.tarball !== basename(tarball)) return;
    writeFileAtomic(metaFile, JSON.stringify({ ...meta, published }, null, 2) + "\n");
  } catch {
    // a read-only or changing cache: the date stays unknown
  }
}

/**
 * The release's tarball, downloaded into `dir` and checked against the registry's integrity. npm downloads it into
 * its own cache (`npm cache add`) and it is copied out of there: `npm pack` would download it the same way and then
 * list and hash the whole tarball again (5 s of CPU in all for a 130 MB native build). Where npm's cache does not
 * hold it as cacache files content (another layout or algorithm), or holds it damaged, `npm pack` writes it.
 */
async function downloadTarball(
  id: ReleaseId,
  integrity: string,
  dir: string,
  ahead: AddedAhead | undefined,
): Promise<{ file: string; ok: boolean; actual: string; sha256: string }> {
  const spec = `${id.package}@${id.version}`;
  const copy = join(dir, tarballName(id.package, id.version));
  if (await copyFromNpmCache(spec, integrity, copy, ahead)) {
    const checked = await checkIntegrity(copy, integrity);
    if (checked.ok) return { file: copy, ...checked };
    rmSync(copy, { force: true });
  }
  const packed = await npmPack(spec, dir);
  return { file: packed, ...(await checkIntegrity(packed, integrity)) };
}

/**
 * Whether npm's cache holds the content of `integrity` where cacache files it, now copied to `dest`. Content
 * already there is taken as it is (the copy is checked after), and a download `ahead` of it stopped: npm cache add
 * reads and hashes a tarball it holds for seconds before it returns. Else npm cache adds it (`ahead`, if started).
 */
async function copyFromNpmCache(spec: string, integrity: string, dest: string, ahead: AddedAhead | undefined): Promise<boolean> {
  const want = strongestHash(integrity);
  if (!want) return false;
  const content = npmCacheContent(await npmCacheFolder(), want.algorithm, Buffer.from(want.digest, "base64").toString("hex"));
  if (existsSync(content)) ahead?.cancel();
  else await (ahead?.added ?? npmCacheAdd(spec));
  try {
    // On a file system that can (APFS, Btrfs, XFS) the copy shares npm's blocks until either changes; the copy
    // runs on libuv's pool, leaving this thread to another release of the same run.
    await copyFile(content, dest, fsConstants.COPYFILE_FICLONE);
    // cacache may keep its content read-only; the cache's copy is ours to replace.
    chmodSync(dest, 0o644);
    return true;
  } catch {
    // Not there, or not readable.
    rmSync(dest, { force: true });
    return false;
  }
}

/** An `npm cache add` of a release started before its integrity is known (addAhead). */
export interface AddedAhead {
  id: ReleaseId;
  added: Promise<void>;
  cancel(): void;
}

/**
 * Start `npm cache add` of the first release of `plan` that `cache` has no folder for: one that must be downloaded,
 * and whose download needs nothing from the registry's answers asked for first. Undefined when there is none.
 */
export function addAhead(cache: string, plan: readonly ReleaseId[]): AddedAhead | undefined {
  const id = plan.find((r) => !existsSync(releaseDir(cache, r.version, r.platform)));
  if (!id) return undefined;
  const stop = new AbortController();
  const added = npmCacheAdd(`${id.package}@${id.version}`, stop.signal);
  // Its failure is the download's, reported when the download takes it; cancelled, it is nobody's.
  added.catch(() => {});
  // Where npm's cache is, asked now too: the copy looks there as soon as the integrity is known.
  npmCacheFolder().catch(() => {});
  return { id, added, cancel: () => stop.abort() };
}

/**
 * Download the release into a temporary folder in the cache, check its hash against `integrity` (the registry's
 * dist.integrity), then move the folder into place (replacing a corrupt copy). Nothing is left behind on failure.
 */
export async function downloadRelease(
  cache: string,
  id: ReleaseId,
  integrity: string,
  published?: string,
  ahead?: AddedAhead,
): Promise<CachedRelease> {
  mkdirSync(cache, { recursive: true });
  removeStaleTemporaries(cache);
  const tmp = mkdtempSync(join(cache, ".tmp-"));
  underWay(tmp);
  try {
    const { file: packed, ok, actual, sha256 } = await downloadTarball(id, integrity, tmp, ahead);
    if (!ok) {
      throw new SearchliftError(
        `integrity mismatch for ${id.package}@${id.version}: the registry says ${integrity}, the downloaded tarball is ${actual} (nothing cached)`,
        ExitCode.integrity,
      );
    }
    const name = tarballName(id.package, id.version);
    if (join(tmp, name) !== packed) renameSync(packed, join(tmp, name));
    const meta: Omit<CachedRelease, "tarball" | "sha256"> & { tarball: string; fetched: string; published?: string } = {
      ...id,
      tarball: name,
      integrity,
      fetched: new Date().toISOString(),
      ...(published ? { published } : {}),
    };
    writeFileSync(join(tmp, RELEASE_META), JSON.stringify(meta, null, 2) + "\n");
    const dir = releaseDir(cache, id.version, id.platform);
    mkdirSync(join(dir, ".."), { recursive: true });
    install(tmp, dir);
    return { ...id, tarball: join(dir, name), integrity, sha256 };
  } catch (e) {
    if (e instanceof SearchliftError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new SearchliftError(`cannot write the cache: ${err.code ?? ""} ${err.message}`.trim(), ExitCode.output, cache);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    downloads.delete(tmp);
  }
}

/** Temporary folders of downloads under way: a process that exits before they end (a command that failed
 *  meanwhile) removes them as it goes. */
const downloads = new Set<string>();
let removingOnExit = false;

function underWay(tmp: string): void {
  if (!removingOnExit) process.on("exit", removeUnfinished);
  removingOnExit = true;
  downloads.add(tmp);
}

function removeUnfinished(): void {
  for (const tmp of downloads) rmSync(tmp, { recursive: true, force: true });
}

/** Temporary folders a fetch that was killed (Ctrl-C during the download) left behind, a day or more ago. */
function removeStaleTemporaries(cache: string): void {
  const day = 24 * 3600 * 1000;
  for (const name of readdirSync(cache)) {
    if (!name.startsWith(".tmp-")) continue;
    const p = join(cache, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > day) rmSync(p, { recursive: true, force: true });
    } catch {
      // another fetch is removing it
    }
  }
}

/** Rename `from` to `to`; an existing `to` (a corrupt copy, or one another fetch just installed) is replaced. */
function install(from: string, to: string, attempts = 3): void {
  if (existsSync(to)) {
    const old = `${from}.old`;
    renameSync(to, old);
    try {
      renameSync(from, to);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
    return;
  }
  try {
    renameSync(from, to);
  } catch (e) {
    // Another fetch of the same release won the race: its copy is verified too, but replace it with ours.
    if (attempts <= 1 || !["ENOTEMPTY", "EEXIST", "EPERM"].includes((e as NodeJS.ErrnoException).code ?? "")) throw e;
    install(from, to, attempts - 1);
  }
}
