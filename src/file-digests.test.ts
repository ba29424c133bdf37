import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { digestsInBackground, sha256InBackground } from "./file-digests.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-hash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("digests on a worker thread", () => {
  it("hashes a file larger than its read buffer, to the byte", async () => {
    // 9 MB and 7 bytes: two full 4 MB reads and a short one.
    const data = Buffer.alloc(9 * 1024 * 1024 + 7);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31 + (i >> 11)) & 0xff;
    const file = join(dir, "big.bin");
    writeFileSync(file, data);
    expect(await sha256InBackground(file).result).toBe(createHash("sha256").update(data).digest("hex"));
  });

  it("takes several digests in the one read, each as createHash gives it", async () => {
    const data = Buffer.alloc(5 * 1024 * 1024 + 3, 7);
    const file = join(dir, "several.bin");
    writeFileSync(file, data);
    const want = ["sha512", "sha256", "sha1"].map((a) => createHash(a).update(data).digest("hex"));
    expect(await digestsInBackground(file, ["sha512", "sha256", "sha1"]).result).toEqual(want);
  });

  it("rejects with the file's name when the file cannot be read", async () => {
    const missing = join(dir, "missing.bin");
    await expect(sha256InBackground(missing).result).rejects.toThrow(`cannot hash ${missing}`);
  });
});
