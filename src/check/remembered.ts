/**
 * Notes check keeps in its lift cache, so that a rerun asks the registry nothing and reads no release again:
 * which input each release (version and platform) was lifted from (here), and each input's sha256
 * (input-hash.ts). Notes lead only to a folder of the lift cache, which is what check trusts (its modules are
 * read back as they are); a note that is missing, unreadable or out of date is ignored.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import { releaseDir } from "../fetch/release-cache.js";
import { parseJsonOrNull } from "../schemas/json.js";
import { writeFileAtomic } from "../safe-write.js";

/** A sha256 as notes hold it: 64 lower-case hex digits, so that it is safe as a folder name. */
const sha256Schema = z.string().check(z.regex(/^[0-9a-f]{64}$/));

export function isSha256(x: unknown): x is string {
  return sha256Schema.safeParse(x).success;
}

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

const anyNote = z.record(z.string(), z.unknown());

/** A note as an object of any fields, or null (missing, unreadable, not an object). */
export function readNote(path: string): Record<string, unknown> | null {
  return readNoteAs(anyNote, path);
}

/** A note of the schema's shape, or null: a note of another shape is ignored, as a missing one is. */
export function readNoteAs<S extends z.ZodMiniType>(schema: S, path: string): z.output<S> | null {
  try {
    return parseJsonOrNull(schema, readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

/** Written whole or not at all; a cache that cannot be written only costs the next run a hash or a fetch. */
export function writeNote(path: string, note: object): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, JSON.stringify(note) + "\n");
  } catch {
    // a read-only cache: nothing remembered
  }
}
