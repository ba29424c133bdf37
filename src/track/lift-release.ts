/**
 * The lift of one release for track and history: in a child process (liftOne) or in this one (liftHere), its
 * answer kept in the lift cache under the input's sha256 when it is definite, and read back (readCached).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";
import { ExitCode, SearchliftError } from "../errors.js";
import { VERSION } from "../version.js";
import { liftedCode, liftInput, LiftFailure } from "../lift/lift.js";
import { isPlatform, isVersion, isVersionOrUnknown } from "../release-names.js";
import { isInside } from "../safe-write.js";
import { isAcceptedAgreement, type Agreement } from "../verify/shared-verification.js";
import { parseJsonOrNull } from "../schemas/json.js";
import type { RoutinePack } from "../routines/pack.js";
import type { Release } from "./timeline.js";
import { PROGRESS_JSON, type OnProgress, type ProgressEvent } from "../progress.js";

const BIN = fileURLToPath(new URL("../../bin/searchlift.js", import.meta.url));

/**
 * Exit codes of `searchlift lift` that answer for the input itself, whatever the run: those results are
 * cached (an inconclusive verification too: the same release gives the same cases). Our own bugs (1), output
 * trouble (6), time limits (15) and killed children are not, so a rerun tries again.
 */
const DEFINITE: ReadonlySet<number> = new Set([
  ExitCode.ok,
  ExitCode.unreadable,
  ExitCode.unrecognized,
  ExitCode.malformed,
  ExitCode.notLiftable,
  ExitCode.disagreement,
  ExitCode.inconclusive,
]);

/** What a lift said of one release: `searchlift lift --json`'s result, or the same read off liftInput in this process. */
interface LiftAnswer {
  error?: string;
  exitCode?: number;
  version?: string;
  platform?: string;
  module?: string;
  signature?: string;
  verified?: Release["verified"] | "skipped";
}

/**
 * A lift's events as track and history tell them: only the verification's count of cases, with the release it
 * is for, so a long verification shows it moving (the release's own line comes when its lift is over).
 */
export function verifyingCount(release: string, onProgress: OnProgress | undefined): OnProgress {
  return (e: ProgressEvent) => {
    if (e.stage === "verify" && e.total && e.done !== undefined && e.done < e.total)
      onProgress?.({ stage: "verify", message: `verifying ${release}`, done: e.done, total: e.total });
  };
}

/** Lift one release in a child process; the result (or the error) is cached under its key. */
export async function liftOne(
  input: string,
  key: string,
  cache: string,
  verify: boolean,
  verifyTimeoutS?: number,
  onProgress?: OnProgress,
): Promise<Release> {
  const tmp = liftFolder(cache, key);
  const { stdout, code } = await run(
    process.execPath,
    [
      BIN,
      "lift",
      input,
      "--out",
      join(tmp, "lifted"),
      "--json",
      ...(verify ? [] : ["--no-verify"]),
      ...(verifyTimeoutS ? ["--verify-timeout", String(verifyTimeoutS)] : []),
      // Most adjacent releases carry the same routine: one verification of it serves them all.
      ...(verify ? ["--verifications", join(cache, "verifications")] : []),
      // This cache is track's own; its progress is said here, from the results and the events the child tells.
      "--no-lift-cache",
    ],
    onProgress,
  );
  let res: LiftAnswer | undefined;
  try {
    res = (JSON.parse(stdout) as { results: LiftAnswer[] }).results[0];
  } catch {
    res = undefined;
  }
  return keepAnswer(input, key, cache, tmp, verify, res, `lift failed (exit ${code})`);
}

/**
 * liftOne in this process: the same lift (liftInput, as `searchlift lift` runs it), the same module written and
 * the same entry cached, without a process to start, a bundle to load and compile, or a tarball to hash again
 * (`sha256` is the caller's, taken as the tarball was read). What only the command line does is left out: the
 * probe table `lift --json` prints, which track does not read. Several at once share this process's verifiers
 * and one verification of the same program. A bug of ours that throws is this release's error, not cached.
 */
export async function liftHere(
  input: string,
  sha256: string,
  cache: string,
  verify: boolean,
  opts: { verifyTimeoutS?: number; pack: RoutinePack; onProgress?: OnProgress },
): Promise<Release> {
  const tmp = liftFolder(cache, sha256);
  let res: LiftAnswer | undefined;
  try {
    const r = await liftInput(input, {
      out: join(tmp, "lifted"),
      verify,
      inputSha256: sha256,
      pack: opts.pack,
      ...(opts.verifyTimeoutS ? { verifyTimeoutS: opts.verifyTimeoutS } : {}),
      ...(verify ? { verifications: join(cache, "verifications") } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    res = { version: r.version, platform: r.platform, module: r.module, signature: r.signature, verified: r.verified ?? "skipped" };
  } catch (e) {
    if (e instanceof SearchliftError) {
      // As lift's command line reports it (src/cli/lift.ts): the release where it was read, the message on one line.
      const release = e instanceof LiftFailure ? e.release : null;
      res = {
        ...(release ? { version: release.version, platform: release.platform } : {}),
        error: e.message.replace(/\s*\n\s*/g, " ").trim(),
        exitCode: e.exitCode,
      };
    }
  }
  return keepAnswer(input, sha256, cache, tmp, verify, res, "lift failed (exit 1)");
}

/** A fresh folder of our own beside the entry `key` will be (nothing planted at a predictable name is written through). */
function liftFolder(cache: string, key: string): string {
  return mkdtempSync(`${join(cache, key)}.tmp-`);
}

/**
 * The release a lift's answer describes, its entry moved from `tmp` into place under `key` when the answer is
 * definite (else `tmp` is removed, and the release is lifted again next run). No answer: the lift failed with
 * `failure`.
 */
function keepAnswer(
  input: string,
  key: string,
  cache: string,
  tmp: string,
  verify: boolean,
  res: LiftAnswer | undefined,
  failure: string,
): Release {
  const dir = join(cache, key);
  let release: Release;
  let definite = false;
  try {
    if (!res) throw new Error("no answer");
    definite = DEFINITE.has(res.error ? res.exitCode! : ExitCode.ok);
    if (res.error) {
      release = {
        input,
        version: res.version ?? versionGuess(input),
        platform: res.platform ?? "unknown",
        routineHash: null,
        error: res.error,
        verified: null,
      };
    } else {
      if (!isInside(tmp, res.module!)) throw new Error("the lifted module is outside the cache");
      const hash = createHash("sha256")
        .update(liftedCode(readFileSync(res.module!, "utf8")))
        .digest("hex");
      // Where the module will be once the folder is renamed into place.
      const module = join(dir, relative(tmp, res.module!));
      release = {
        input,
        version: res.version!,
        platform: res.platform!,
        routineHash: hash,
        signature: res.signature!,
        verified: res.verified === "skipped" ? null : res.verified!,
        module,
      };
    }
    if (!isVersionOrUnknown(release.version) || !isPlatform(release.platform)) throw new Error("not a release version or platform");
  } catch {
    release = {
      input,
      version: versionGuess(input),
      platform: "unknown",
      routineHash: null,
      error: failure,
      verified: null,
    };
  }
  if (!definite) {
    rmSync(tmp, { recursive: true, force: true });
    return release;
  }
  writeFileSync(join(tmp, "release.json"), JSON.stringify({ ...release, verifiedRun: verify, searchlift: VERSION }, null, 2));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return release;
}

/**
 * release.json in track's cache, as liftOne writes it: an entry of another shape (a version or module path liftOne
 * would not have written, a verification without its counts or one the verdict now refuses) is lifted again.
 */
const cachedReleaseSchema = z.object({
  input: z.string(),
  version: z.string().check(z.refine(isVersionOrUnknown)),
  platform: z.string().check(z.refine(isPlatform)),
  routineHash: z.nullable(z.string()),
  signature: z.optional(z.string()),
  verified: z.nullable(z.custom<Agreement>((v) => typeof v === "object" && v !== null && isAcceptedAgreement(v))),
  module: z.optional(z.string()),
  error: z.optional(z.string()),
  published: z.optional(z.string()),
  verifiedRun: z.boolean(),
  searchlift: z.optional(z.string()),
});

export function readCached(cache: string, key: string, verify: boolean): Release | null {
  const file = join(cache, key, "release.json");
  if (!existsSync(file)) return null;
  let r: z.infer<typeof cachedReleaseSchema> | null;
  try {
    r = parseJsonOrNull(cachedReleaseSchema, readFileSync(file, "utf8"));
  } catch {
    return null;
  }
  // Another searchlift may lift differently; a lift cached without verification does not answer a run that asks for it.
  if (!r || r.searchlift !== VERSION) return null;
  if (verify && !r.verifiedRun && !r.error) return null;
  if (r.module !== undefined && !isInside(join(cache, key), r.module)) return null;
  const { verifiedRun: _, searchlift: __, ...release } = r;
  return release;
}

/** A release that could not be lifted is named by its file when that is a version (a versions folder). */
function versionGuess(input: string): string {
  const b = basename(input);
  return isVersion(b) ? b : "unknown";
}

function run(cmd: string, args: string[], onProgress?: OnProgress): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolvePromise) => {
    // The lift exits when this process dies (see exit-with-parent.ts), and takes its verifier along. Its stderr
    // holds only its progress events, as JSON lines (PROGRESS_JSON), read when asked for and dropped otherwise.
    const env = { ...process.env, SEARCHLIFT_EXIT_WITH_PARENT: "1", [PROGRESS_JSON]: "1" };
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", onProgress ? "pipe" : "ignore"], env });
    let stdout = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    if (onProgress && child.stderr) readProgress(child.stderr, onProgress);
    child.on("close", (code) => resolvePromise({ stdout, code }));
  });
}

/** A child's progress events, one JSON line each; a line that is not one is skipped. */
function readProgress(stream: NodeJS.ReadableStream, onProgress: OnProgress): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
    const event = progressEvent(line);
    if (event) onProgress(event);
  });
}

function progressEvent(line: string): ProgressEvent | undefined {
  try {
    const e = (JSON.parse(line) as { progress?: ProgressEvent }).progress;
    return e && typeof e.stage === "string" && typeof e.message === "string" ? e : undefined;
  } catch {
    return undefined;
  }
}
