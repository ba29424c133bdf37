/**
 * Notes kept in a cache folder: small JSON files read back whole or ignored, so that a rerun can skip work
 * (check's notes, remembered.ts, and each input's sha256, input-hash.ts). A note that is missing, unreadable or
 * of another shape reads as null.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import * as z from "zod/mini";
import { parseJsonOrNull } from "./schemas/json.js";
import { writeFileAtomic } from "./safe-write.js";

/** A sha256 as notes hold it: 64 lower-case hex digits, so that it is safe as a folder name. */
export const sha256Schema = z.string().check(z.regex(/^[0-9a-f]{64}$/));

export function isSha256(x: unknown): x is string {
  return sha256Schema.safeParse(x).success;
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
