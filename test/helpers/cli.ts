/**
 * The command line as the tests run it: `node bin/searchlift.js …`, one process per call, on the build in dist/
 * (`npm run build` first). One runner for every test file, so that a launcher, timeout or buffer change is made
 * once.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

/** The repository's root. */
export const ROOT = join(import.meta.dirname, "..", "..");
/** The launcher the package installs as `searchlift`. */
export const BIN = join(ROOT, "bin", "searchlift.js");

export interface CliRun {
  /** The exit code; null when the process was killed (by `timeout`, or a signal). */
  code: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Added to the test's own environment. */
  env?: Record<string, string>;
  /** Milliseconds before the process is killed (default 600 000: a lift with verification on a loaded machine). */
  timeout?: number;
  /** Text written to its stdin. */
  input?: string;
}

/** Run `searchlift args…` to its end. A process that cannot be started at all throws. */
export function runCli(args: readonly string[], options: CliOptions = {}): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    timeout: options.timeout ?? 600_000,
    cwd: options.cwd,
    env: options.env ? { ...process.env, ...options.env } : process.env,
    input: options.input,
    // A --json answer over many releases runs to megabytes; spawnSync's default of 1 MB would cut it.
    maxBuffer: 256 << 20,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code !== "ETIMEDOUT") throw r.error;
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}
