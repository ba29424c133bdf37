import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lookupCached, RELEASE_META, releaseDir, tarballName } from "./release-cache.js";

const cache = mkdtempSync(join(tmpdir(), "release-cache-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

const id = { package: "@anthropic-ai/claude-code", version: "2.1.112", platform: "npm" };
const bytes = Buffer.from("a tarball");
const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
const dir = releaseDir(cache, id.version, id.platform);
const meta = { ...id, tarball: tarballName(id.package, id.version), integrity };

function lookup(text: string) {
  writeFileSync(join(dir, RELEASE_META), text);
  return lookupCached(cache, id);
}

describe("a cached release's release.json", () => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, meta.tarball), bytes);

  it("as fetch writes it, with fields it does not read, is a hit", async () => {
    expect(await lookup(JSON.stringify({ ...meta, fetched: "now" }))).toMatchObject({ status: "hit", release: { integrity } });
  });

  it("that does not parse, or is of another shape, makes the entry corrupt, saying why", async () => {
    expect(await lookup("{")).toEqual({ status: "corrupt", why: "release.json is missing or unreadable" });
    const other = { status: "corrupt", why: "release.json does not describe @anthropic-ai/claude-code@2.1.112" };
    for (const bad of [{ ...meta, integrity: 5 }, { ...meta, tarball: undefined }, { ...meta, version: "2.1.113" }, [meta]])
      expect(await lookup(JSON.stringify(bad))).toEqual(other);
    expect(await lookup(JSON.stringify({ ...meta, tarball: "x.tgz" }))).toEqual({
      status: "corrupt",
      why: "release.json names another tarball",
    });
  });
});
