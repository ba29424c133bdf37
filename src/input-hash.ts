/**
 * The sha256 that keys an input in the lift cache (lift-cache.ts, check's releases.ts): of a file (the lift's
 * provenance records the same), or of a folder's files (relative paths and contents, in sorted order). An input
 * hashed before and not written since is not read again: its stamp (every file's device, inode, size, and mtime
 * and ctime in nanoseconds) is kept beside the hash. Any write changes a file's ctime, even one that puts the old
 * size and mtime back.
 */
import { createHash } from "node:crypto";
import { createReadStream, readdirSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { isSha256, readNote, writeNote } from "./cache-notes.js";

export async function inputHash(input: string, liftCache: string): Promise<string> {
  const path = realpathSync(input);
  const files = statSync(path).isDirectory() ? filesUnder(path) : [path];
  // Stamped before it is read: a write meanwhile leaves the note stale, never the hash.
  const stamp = files.map((f) => `${relative(path, f)}\0${fileStamp(f)}`).join("\n");
  const note = noteFile(liftCache, path);
  const known = readNote(note);
  if (known?.["stamp"] === stamp && isSha256(known["sha256"])) return known["sha256"];
  const sha256 = await hashOf(path, files);
  writeNote(note, { path, stamp, sha256 });
  return sha256;
}

async function hashOf(path: string, files: string[]): Promise<string> {
  const h = createHash("sha256");
  const folder = files[0] !== path;
  for (const file of files) {
    if (folder) h.update(`${relative(path, file)}\0`);
    for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  }
  return h.digest("hex");
}

function fileStamp(file: string): string {
  const st = statSync(file, { bigint: true });
  return [st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join(":");
}

function noteFile(liftCache: string, realPath: string): string {
  return join(liftCache, "inputs", `${createHash("sha256").update(realPath).digest("hex")}.json`);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}
