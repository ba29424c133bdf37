/**
 * searchlift fetch downloads with the user's own npm, so the registry, proxy, authentication, certificates and
 * cache configured in their npmrc files (and npm_config_* variables) all apply. `SEARCHLIFT_NPM` names another
 * npm executable.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";

/** A failed npm run; `npmCode` is npm's own error code (E404, EINTEGRITY, ENOTFOUND, …) when it gave one. */
export class NpmError extends SearchliftError {
  constructor(
    message: string,
    readonly npmCode: string | undefined,
    exitCode: ExitCode = ExitCode.npmFailed,
  ) {
    super(message, exitCode);
    this.name = "NpmError";
  }
}

export function npmExecutable(): string {
  return process.env.SEARCHLIFT_NPM || (process.platform === "win32" ? "npm.cmd" : "npm");
}

/**
 * Run npm with `args`; resolves to its stdout. Rejects with an NpmError naming npm's error in one line. Aborting
 * `abort` stops npm.
 */
export function runNpm(args: string[], abort?: AbortSignal): Promise<string> {
  const npm = npmExecutable();
  const win = process.platform === "win32";
  return new Promise((resolve, reject) => {
    // npm on Windows is a .cmd script, which Node only starts through the shell; our arguments are package specs
    // and paths, quoted so that `||` in a version set stays an argument.
    const child = spawn(win ? `"${npm}"` : npm, win ? args.map((a) => `"${a}"`) : args, {
      stdio: ["ignore", "pipe", "pipe"],
      shell: win,
      env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
      windowsHide: true,
      ...(abort ? { signal: abort } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e: NodeJS.ErrnoException) => {
      reject(
        e.code === "ENOENT"
          ? new NpmError(
              `cannot run ${npm}: not found (fetch downloads with npm so your npmrc applies; install npm or set SEARCHLIFT_NPM)`,
              "ENOENT",
            )
          : new NpmError(`cannot run ${npm}: ${e.message}`, e.code),
      );
    });
    child.on("close", (code, signal) => {
      const stdout = Buffer.concat(out).toString("utf8");
      if (code === 0) return resolve(stdout);
      const { npmCode, summary } = describeFailure(stdout, Buffer.concat(err).toString("utf8"));
      const what = `npm ${args
        .filter((a) => !a.startsWith("-"))
        .slice(0, 2)
        .join(" ")}`;
      const why = signal ? `killed by ${signal}` : summary || `exit code ${code}`;
      reject(new NpmError(`${what} failed: ${npmCode && !why.includes(npmCode) ? npmCode + " " : ""}${why}`, npmCode));
    });
  });
}

/** npm's error, from its --json error object on stdout or its `npm error` lines on stderr. */
function describeFailure(stdout: string, stderr: string): { npmCode?: string; summary?: string } {
  try {
    const j = JSON.parse(stdout) as { error?: { code?: string; summary?: string } };
    if (j?.error) return { npmCode: j.error.code, summary: j.error.summary?.split("\n")[0] };
  } catch {
    // not JSON: fall through to stderr
  }
  const lines = stderr
    .split("\n")
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter((l) => l && !/complete log of this run|^\d{3}$/.test(l));
  const code = /code (E[A-Z0-9]+)/.exec(stderr)?.[1];
  const summary = lines.find((l) => !l.startsWith("code ")) ?? lines[0];
  return { ...(code ? { npmCode: code } : {}), ...(summary ? { summary } : {}) };
}

/** `npm view SPEC FIELDS --json`, parsed; undefined when npm prints nothing (a field that is not there). Aborting `abort` stops npm. */
export async function npmView<T>(spec: string, fields: string[], abort?: AbortSignal): Promise<T | undefined> {
  const out = await runNpm(["view", spec, ...fields, "--json"], abort);
  if (!out.trim()) return undefined;
  try {
    return JSON.parse(out) as T;
  } catch {
    throw new NpmError(`npm view ${spec} printed something that is not JSON: ${out.trim().slice(0, 80)}`, undefined);
  }
}

/** `npm cache add SPEC`: npm downloads the package's tarball into its cache, checking the registry's integrity as it writes. */
export async function npmCacheAdd(spec: string, abort?: AbortSignal): Promise<void> {
  await runNpm(["cache", "add", spec], abort);
}

const cacheFolders = new Map<string, Promise<string>>();

/** npm's cache folder, as its config resolves it (`npm config get cache`); asked once a process per npm and cache setting. */
export function npmCacheFolder(): Promise<string> {
  const key = `${npmExecutable()}\0${process.env.npm_config_cache ?? ""}`;
  let folder = cacheFolders.get(key);
  if (!folder) {
    folder = runNpm(["config", "get", "cache"]).then((out) => out.trim());
    cacheFolders.set(key, folder);
    folder.catch(() => cacheFolders.delete(key));
  }
  return folder;
}

/**
 * Where npm's cache keeps the content whose `algorithm` digest is `hex`: cacache files content under
 * `_cacache/content-v2/<algorithm>/` by the digest's first two, next two and remaining hex digits.
 */
export function npmCacheContent(cacheFolder: string, algorithm: string, hex: string): string {
  return join(cacheFolder, "_cacache", "content-v2", algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

/** `npm pack SPEC --pack-destination DIR` (DIR empty); returns the path of the one tarball it wrote. */
export async function npmPack(spec: string, dir: string): Promise<string> {
  await runNpm(["pack", spec, "--pack-destination", dir, "--ignore-scripts", "--silent"]);
  const got = readdirSync(dir).filter((f) => f.endsWith(".tgz"));
  if (got.length !== 1) throw new NpmError(`npm pack ${spec} wrote ${got.length ? got.join(", ") : "no tarball"}`, undefined);
  return join(dir, got[0]!);
}
