/**
 * Notes check keeps in its lift cache, so that a rerun asks the registry nothing and reads no release again:
 * which input each release (version and platform) was lifted from (here), and each input's sha256
 * (src/input-hash.ts). Notes lead only to a folder of the lift cache, which is what check trusts (its modules are
 * read back as they are); a note that is missing, unreadable or out of date is ignored.
 */
import { join } from "node:path";
import * as z from "zod/mini";
import { readNoteAs, sha256Schema, writeNote } from "../cache-notes.js";
import { releaseDir } from "../fetch/release-cache.js";

/** A release's note: the input it was last lifted from. */
const releaseNoteSchema = z.object({ input: sha256Schema });

/** The sha256 of the input `version` on `platform` was last lifted from, or null. */
export function rememberedRelease(liftCache: string, version: string, platform: string): string | null {
  return readNoteAs(releaseNoteSchema, releaseNote(liftCache, version, platform))?.input ?? null;
}

export function rememberRelease(liftCache: string, version: string, platform: string, sha256: string): void {
  writeNote(releaseNote(liftCache, version, platform), { input: sha256 });
}

function releaseNote(liftCache: string, version: string, platform: string): string {
  return `${releaseDir(join(liftCache, "releases"), version, platform)}.json`;
}
