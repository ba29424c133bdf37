/**
 * `searchlift track`: lift every release of a set, group consecutive releases whose lifted routine
 * is the same, and write the timeline.
 *
 * Each release is lifted in its own child process (`searchlift lift --json`), several at once, and
 * its result cached under the sha256 of the input, so a rerun is instant and an interrupted run
 * loses only the releases that were in flight. The routine's identity is the sha256 of the lifted
 * code without its origin (liftedCode): the same code under other minified names has one hash.
 * Each change point gets the behaviour view of `diff` between the two groups (changes.ts).
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { contiguousShares, nextIn } from "./work-shares.js";
import { defaultCache } from "../cache-dir.js";
import { basename, dirname, join, resolve } from "node:path";
import * as z from "zod/mini";
import { ExitCode, SearchliftError } from "../errors.js";
import { openContainer } from "../extract/open-container.js";
import { writeFileAtomic } from "../safe-write.js";
import { parseJsonOrNull } from "../schemas/json.js";
import { timelineChanges } from "./changes.js";
import type { RoutinePack } from "../routines/pack.js";
import { timelineHtml } from "../report/report-html.js";
import { buildTimeline, timelineMarkdown, type Release, type Timeline } from "./timeline.js";
import { placeModules } from "./timeline-folder.js";
import { checkOutput, liftedInTimeline } from "../output-folder.js";
import { recordedPublishTime } from "../fetch/release-cache.js";
import type { OnProgress } from "../progress.js";
import { liftOne, readCached, verifyingCount } from "./lift-release.js";

// The lift of one release is lift-release.ts's; history and the tests take it from here too.
export { liftHere, liftOne, readCached, verifyingCount } from "./lift-release.js";

export interface TrackOptions {
  out: string;
  cache?: string;
  jobs?: number;
  verify: boolean;
  /** Time budget for verifying each lift, in seconds (lift's --verify-timeout). */
  verifyTimeoutS?: number;
  /** Progress events (library API: src/progress.ts): one as each release is lifted or read from the cache, then the change points. */
  onProgress?: OnProgress;
  /** The routine lifted and compared (the wiring chooses it: src/clients/claude-code.ts). */
  pack: RoutinePack;
}

export interface TrackResult {
  timeline: Timeline;
  /** Releases that were not lifted (their `error` says why). */
  failed: Release[];
  /** Where this run's timeline was written: `out`, or beside it when the timeline there was kept (`kept`). */
  files: { json: string; markdown: string; html: string };
  /** Releases lifted in this run (not counting those that failed, nor those read from the cache). */
  lifted: number;
  /** Releases whose result (lifted or not) came from the lift cache. */
  fromCache: number;
  /**
   * Set when `out` already held a timeline with more releases lifted than this run, which failed on some: that
   * timeline is left in place, and this run's is written to `dir` instead.
   */
  kept?: { out: string; lifted: number; dir: string };
  note?: string;
}

// What a folder of releases holds and what track takes by default are resolved with every other input's.
export { listReleases } from "../inputs/release-folder.js";
export { defaultTrackInputs as defaultInputs } from "../inputs/default-inputs.js";

export async function track(inputs: string[], opts: TrackOptions): Promise<TrackResult> {
  // The output is checked before any work: a file, or a folder that is not a timeline of ours, is refused.
  checkOutput(opts.out, "track");
  if (inputs.length === 0) throw new SearchliftError("no releases to track", ExitCode.usage);
  const cache = resolve(opts.cache ?? defaultCache("track"));
  mkdirSync(cache, { recursive: true });
  // Input hashes remembered by path, size and mtime: read once, written once, so a warm run reads no release.
  const memoFile = join(cache, "inputs.json");
  const memo: Record<string, string> = existsSync(memoFile) ? safeJson(readFileSync(memoFile, "utf8")) : {};
  const keys = await Promise.all(inputs.map((i) => inputKey(i, memo)));
  writeAtomic(memoFile, JSON.stringify(memo));
  const releases = new Array<Release>(inputs.length);
  const todo: number[] = [];
  inputs.forEach((input, i) => {
    const cached = readCached(cache, keys[i]!, opts.verify);
    if (cached) releases[i] = { ...cached, input };
    else todo.push(i);
  });

  let done = inputs.length - todo.length;
  if (done) opts.onProgress?.({ stage: "track", message: `${done} from the cache`, done, total: inputs.length });
  const jobs = Math.max(1, Math.min(opts.jobs ?? availableParallelism(), todo.length || 1));
  const shares = contiguousShares(todo, jobs);
  const worker = async (k: number) => {
    for (let i = nextIn(shares, k); i !== undefined; i = nextIn(shares, k)) {
      const verifying = verifyingCount(basename(inputs[i]!), opts.onProgress);
      const r = await liftOne(inputs[i]!, keys[i]!, cache, opts.verify, opts.verifyTimeoutS, verifying);
      releases[i] = r;
      opts.onProgress?.({
        stage: "track",
        message: `lifted ${r.version} (${r.platform})${r.error ? `: ${r.error}` : ""}`,
        done: ++done,
        total: inputs.length,
      });
    }
  };
  await Promise.all(Array.from({ length: jobs }, (_, k) => worker(k)));

  // Release dates, where fetch recorded the registry's beside a tarball.
  releases.forEach((r, i) => {
    const published = recordedPublishTime(inputs[i]!);
    if (published) r.published = published;
  });
  const liftedNow = todo.filter((i) => releases[i]!.routineHash !== null).length;
  const written = await writeTimeline(releases, { ...opts, cache });
  return { ...written, lifted: liftedNow, fromCache: inputs.length - todo.length };
}

export interface TimelineWriteOptions {
  out: string;
  /** The lift cache (change points' behaviour is cached in its `behaviour/`). */
  cache: string;
  jobs?: number;
  onProgress?: OnProgress;
  pack: RoutinePack;
  /** More files for the timeline folder, made from the finished timeline (history's changelog.md). */
  extraFiles?: (timeline: Timeline, dir: string) => Record<string, string>;
}

/**
 * The timeline of `releases` (lifted or not), its change points explained, written to a folder of its own beside
 * `opts.out` and swapped in at the end (placeTimeline). Shared by track and history.
 */
export async function writeTimeline(
  releases: Release[],
  opts: TimelineWriteOptions,
): Promise<Pick<TrackResult, "timeline" | "failed" | "files" | "kept">> {
  const target = resolve(opts.out);
  const failed = releases.filter((r) => r.routineHash === null);
  // The new timeline is written to a folder of its own beside the output, and swapped in at the end (below).
  const outDir = newTimelineFolder(target);
  try {
    // The modules are copied into the timeline folder and named relative to it (timeline-folder.ts).
    const timeline = buildTimeline(placeModules(releases, outDir));
    // Each change point's behaviour (adjacent groups only), cached beside the lifts.
    const points = Math.max(0, timeline.groups.length - 1);
    opts.onProgress?.({ stage: "diff", message: `comparing ${points} change point${points === 1 ? "" : "s"}`, done: 0, total: points });
    timeline.changes = await timelineChanges(timeline, {
      onChange: (done, total, c) => opts.onProgress?.({ stage: "diff", message: `compared ${c.from} → ${c.to}`, done, total }),
      cache: opts.cache,
      dir: outDir,
      jobs: opts.jobs ?? availableParallelism(),
      pack: opts.pack,
    });
    writeAtomic(join(outDir, "timeline.json"), JSON.stringify(timeline, null, 2) + "\n");
    writeAtomic(join(outDir, "timeline.md"), timelineMarkdown(timeline));
    writeAtomic(
      join(outDir, "timeline.html"),
      timelineHtml(timeline, { read: (p) => readFileSync(join(outDir, p), "utf8"), pack: opts.pack }),
    );
    for (const [name, text] of Object.entries(opts.extraFiles?.(timeline, outDir) ?? {})) writeAtomic(join(outDir, name), text);
    const place = placeTimeline(outDir, target, releases.length - failed.length, failed.length > 0);
    const files = {
      json: join(place.dir, "timeline.json"),
      markdown: join(place.dir, "timeline.md"),
      html: join(place.dir, "timeline.html"),
    };
    return {
      timeline,
      files,
      failed,
      ...(place.kept ? { kept: { out: target, lifted: place.kept, dir: place.dir } } : {}),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** A fresh folder beside `target` for a new timeline (mkdtemp: nothing planted at a predictable name is used). */
function newTimelineFolder(target: string): string {
  const parent = dirname(target);
  try {
    mkdirSync(parent, { recursive: true });
    return mkdtempSync(join(parent, `.${basename(target)}.tmp-${process.pid}-`));
  } catch (e) {
    throw new SearchliftError(
      `cannot create the output folder: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      ExitCode.output,
      target,
    );
  }
}

/**
 * Put the new timeline (`fresh`) where it belongs. It replaces the one at `target` unless this run failed on
 * some release and lifted fewer releases than that one did: a failed run never replaces a better timeline. It
 * then goes to `<target>.incomplete` (or `-2`, … when that name holds something not ours), and the old stays.
 */
function placeTimeline(fresh: string, target: string, lifted: number, someFailed: boolean): { dir: string; kept?: number } {
  const before = liftedInTimeline(target);
  let dir = target;
  let kept: number | undefined;
  if (someFailed && before !== null && lifted < before) {
    kept = before;
    for (let n = 1; ; n++) {
      dir = `${target}.incomplete${n === 1 ? "" : `-${n}`}`;
      try {
        checkOutput(dir, "track");
        break;
      } catch {
        // taken by something else: the next name
      }
    }
  }
  try {
    if (existsSync(dir)) {
      const old = `${fresh}.old`;
      renameSync(dir, old);
      renameSync(fresh, dir);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(fresh, dir);
    }
  } catch (e) {
    throw new SearchliftError(`cannot write output: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.output, dir);
  }
  return kept === undefined ? { dir } : { dir, kept };
}

/** sha256 of an input, from `memo` when its path, size and mtime are unchanged (and added to it otherwise). */
async function inputKey(input: string, memo: Record<string, string>): Promise<string> {
  const st = statSync(input, { throwIfNoEntry: false });
  if (!st) throw new SearchliftError("cannot read input: ENOENT", ExitCode.unreadable, input);
  const id = `${resolve(input)}\0${st.size}\0${st.mtimeMs}`;
  if (memo[id]) return memo[id];
  const h = createHash("sha256");
  // A package folder is keyed by its program's bytes (its own mtime misses an edit in place); a folder
  // with no program we can read, by its path and mtime: lift will say what is wrong with it.
  const file = st.isDirectory() ? programOf(input) : input;
  if (file === null) return h.update(`dir:${resolve(input)}:${st.mtimeMs}`).digest("hex");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return st.isDirectory() ? h.digest("hex") : (memo[id] = h.digest("hex"));
}

/** The program file of a package folder, as lift reads it. */
function programOf(folder: string): string | null {
  try {
    const c = openContainer(folder);
    c.close();
    return c.file;
  } catch {
    return null;
  }
}

/** The memo of input hashes: path, size and mtime → sha256; one of another shape is started afresh. */
const inputMemoSchema = z.record(z.string(), z.string());

function safeJson(text: string): Record<string, string> {
  return parseJsonOrNull(inputMemoSchema, text) ?? {};
}

function writeAtomic(path: string, text: string): void {
  writeFileAtomic(path, text);
}
