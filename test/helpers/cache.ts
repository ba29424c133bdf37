/**
 * Test inputs that come from outside the repository — real releases from the npm registry, old Bun
 * and Node builds, executables built from samples/ — live in a cache outside the checkout, so a
 * rerun costs nothing and nothing proprietary is ever committed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { skipWithoutNetwork } from "./network-gate.js";

export function cacheDir(...sub: string[]): string {
  const base = process.env.SEARCHLIFT_TEST_CACHE ?? join(homedir(), ".cache", "searchlift");
  const dir = join(base, ...sub);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** `npm pack SPEC` into the cache (once); returns the .tgz path. Under SEARCHLIFT_SKIP_REAL=1 the test is skipped. */
export function npmPack(spec: string): string {
  skipWithoutNetwork(spec);
  const dir = cacheDir("npm");
  const name = spec.replace(/^@/, "").replace(/[/@]/g, "-") + ".tgz";
  const want = join(dir, name);
  if (existsSync(want)) return want;
  const tmp = join(dir, `.tmp-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  try {
    execFileSync("npm", ["pack", spec, "--pack-destination", tmp, "--silent"], { stdio: ["ignore", "pipe", "inherit"] });
    const got = readdirSync(tmp).filter((f) => f.endsWith(".tgz"));
    if (got.length !== 1) throw new Error(`npm pack ${spec}: expected one tarball, got ${got.join(", ")}`);
    renameSync(join(tmp, got[0]!), want);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return want;
}

/** Unpack `member` (e.g. "package/claude") of the packed SPEC into the cache (once); returns its path. */
export function npmPackMember(spec: string, member: string): string {
  const tgz = npmPack(spec);
  const dir = cacheDir("unpacked", spec.replace(/^@/, "").replace(/[/@]/g, "-"));
  const want = join(dir, member);
  if (existsSync(want)) return want;
  const tmp = join(dir, `.tmp-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    execFileSync("tar", ["-xzf", tgz, "-C", tmp, member]);
    mkdirSync(join(want, ".."), { recursive: true });
    renameSync(join(tmp, member), want);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return want;
}
