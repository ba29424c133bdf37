/**
 * The command line as the tests run it: `node bin/searchlift.js …`, one process per call, on the build in dist/
 * (`npm run build` first). One runner for every test file, so that a launcher, timeout or buffer change is made
 * once.
 */
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";

/** The repository's root. */
export const ROOT = join(import.meta.dirname, "..", "..");
/** The launcher the package installs as `searchlift`. */
export const BIN = join(ROOT, "bin", "searchlift.js");
/** BIN run so that it reports its peak resident memory on fd 3 as it exits. */
const RUSAGE = join(ROOT, "test", "helpers", "cli-rusage.mjs");

export interface CliRun {
  /** The exit code; null when the process was killed (by `timeout`, or a signal). */
  code: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  /** Whether it was killed for running past `timeout`. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Its peak resident memory in MB, with `peakRss` (0 when it ended before saying). */
  peakRssMb?: number;
}

export interface CliOptions {
  cwd?: string;
  /** Added to the test's own environment; a variable set to undefined is taken out of it. */
  env?: Record<string, string | undefined>;
  /**
   * Milliseconds before the process is killed (default 600 000: a lift with verification on a loaded machine); 0
   * for none, where the test's own timeout bounds it.
   */
  timeout?: number;
  /** Text written to its stdin. */
  input?: string;
  /** Measure the process's peak resident memory (`peakRssMb`). */
  peakRss?: boolean;
}

/** Run `searchlift args…` to its end. A process that cannot be started at all throws. */
export function runCli(args: readonly string[], options: CliOptions = {}): CliRun {
  const r = spawnSync(process.execPath, [options.peakRss ? RUSAGE : BIN, ...args], {
    encoding: "utf8",
    timeout: options.timeout ?? 600_000,
    cwd: options.cwd,
    env: options.env ? environment(options.env) : process.env,
    input: options.input,
    stdio: options.peakRss ? ["pipe", "pipe", "pipe", "pipe"] : "pipe",
    // A --json answer over many releases, or a listing of a payload's hundreds of thousands of records, runs to
    // megabytes; spawnSync's default of 1 MB would cut it.
    maxBuffer: 1 << 30,
  });
  const timedOut = r.error !== undefined && "code" in r.error && r.error.code === "ETIMEDOUT";
  if (r.error && !timedOut) throw r.error;
  const run: CliRun = { code: r.status, signal: r.signal, timedOut, stdout: r.stdout, stderr: r.stderr };
  if (options.peakRss) run.peakRssMb = Number(r.output[3] || "0") / 1024;
  return run;
}

/**
 * `runCli` without blocking this process: for a run beside a server the test itself serves, or several runs at
 * once. Resolves when the process has ended and its output is closed; rejects only when it cannot be started.
 */
export function runCliAsync(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: options.env ? environment(options.env) : process.env,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const ms = options.timeout ?? 600_000;
    const timer = ms > 0 ? setTimeout(() => ((timedOut = true), child.kill()), ms) : undefined;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin.end(options.input);
    child.on("error", (e) => (clearTimeout(timer), reject(e)));
    child.on("close", (code, signal) => (clearTimeout(timer), resolve({ code, signal, timedOut, stdout, stderr })));
  });
}

/** The test's environment with `changes` made: set, or taken out where the value is undefined. */
function environment(changes: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...changes };
  for (const [name, value] of Object.entries(changes)) if (value === undefined) delete env[name];
  return env;
}
