import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readNote } from "../cache-notes.js";
import { releaseDir } from "../fetch/release-cache.js";
import { rememberedRelease, rememberRelease } from "./remembered.js";

const cache = mkdtempSync(join(tmpdir(), "notes-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));
const sha = "ab".repeat(32);

describe("check's notes", () => {
  it("a release's note names the input it was lifted from; one of another shape is ignored, silently", () => {
    rememberRelease(cache, "2.1.112", "npm", sha);
    expect(rememberedRelease(cache, "2.1.112", "npm")).toBe(sha);
    const note = `${releaseDir(join(cache, "releases"), "2.1.112", "npm")}.json`;
    for (const bad of [
      "{",
      "[]",
      "null",
      JSON.stringify({ input: "../x" }),
      JSON.stringify({ input: sha.toUpperCase() }),
      JSON.stringify({ sha }),
    ]) {
      writeFileSync(note, bad);
      expect(rememberedRelease(cache, "2.1.112", "npm")).toBeNull();
    }
  });

  it("any note is an object, or null", () => {
    const file = join(cache, "any", "note.json");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ stamp: 1 }));
    expect(readNote(file)).toEqual({ stamp: 1 });
    writeFileSync(file, "[1]");
    expect(readNote(file)).toBeNull();
    expect(readNote(join(cache, "absent.json"))).toBeNull();
  });
});
