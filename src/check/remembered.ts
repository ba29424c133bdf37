/**
 * What check remembers between runs, so that a rerun asks the registry nothing and reads no release again:
 * which input each release (version and platform) was lifted from, and the sha256 of each file input, by its
 * path and what stat says of it. Both only lead to a folder of the lift cache, which is what check trusts
 * (its modules are read back as they are); a note that is missing, unreadable or out of date is ignored.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { releaseDir } from "../fetch/release-cache.js";
import { writeFileAtomic } from "../safe-write.js";

const SHA256 = /^[0-9a-f]{64}$/;

/** The sha256 of the input `version` on `platform` was last lifted from, or null. */
export function rememberedRelease(liftCache: string, version: string, platform: string): string | null {
  const note = readNote(releaseNote(liftCache, version, platform));
  const input = note?.["input"];
  return typeof input === "string" && SHA256.test(input) ? input : null;
}

export function rememberRelease(liftCache: string, version: string, platform: string, sha256: string): void {
  writeNote(releaseNote(liftCache, version, platform), { input: sha256 });
}

/** A file as stat sees it: any write changes its ctime, even one that puts the old size and mtime back. */
export interface FileStamp {
  path: string;
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
  ctimeNs: string;
}

export function stampOf(file: string): FileStamp {
  const st = statSync(file, { bigint: true });
  const [dev, ino, size, mtimeNs, ctimeNs] = [st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].map(String) as [
    string,
    string,
    string,
    string,
    string,
  ];
  return { path: realpathSync(file), dev, ino, size, mtimeNs, ctimeNs };
}

/** The sha256 recorded for `file` when it was stamped as it is now, or null. */
export function rememberedHash(liftCache: string, file: string): string | null {
  const stamp = stampOf(file);
  const note = readNote(hashNote(liftCache, stamp.path));
  const same = note && (Object.keys(stamp) as Array<keyof FileStamp>).every((k) => note[k] === stamp[k]);
  const sha256 = note?.["sha256"];
  return same && typeof sha256 === "string" && SHA256.test(sha256) ? sha256 : null;
}

/** Record `sha256` for the file as `stamp` (taken before it was hashed, so a write meanwhile leaves it stale). */
export function rememberHash(liftCache: string, stamp: FileStamp, sha256: string): void {
  writeNote(hashNote(liftCache, stamp.path), { ...stamp, sha256 });
}

function releaseNote(liftCache: string, version: string, platform: string): string {
  return `${releaseDir(join(liftCache, "releases"), version, platform)}.json`;
}

function hashNote(liftCache: string, realPath: string): string {
  return join(liftCache, "inputs", `${createHash("sha256").update(realPath).digest("hex")}.json`);
}

function readNote(path: string): Record<string, unknown> | null {
  try {
    const note = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return note !== null && typeof note === "object" && !Array.isArray(note) ? (note as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Written whole or not at all; a cache that cannot be written only costs the next run a hash or a fetch. */
function writeNote(path: string, note: object): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, JSON.stringify(note) + "\n");
  } catch {
    // a read-only cache: nothing remembered
  }
}
