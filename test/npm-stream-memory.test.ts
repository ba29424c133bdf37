/**
 * The .tgz reader must stream the program member to disk, never hold it in memory. Measured in a
 * file of its own: vitest runs each test file in a fresh process, so the peak resident size
 * (maxRSS) before the open is this process's baseline, not an earlier test's.
 */
import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { npmPack } from "./helpers/cache.js";
import { openContainer } from "../src/extract/open-container.js";

describe("npm .tgz streaming", () => {
  it("opens @anthropic-ai/claude-code-darwin-arm64@2.1.332 (package.json after a 383 MB member) without buffering the member", async ({
    annotate,
  }) => {
    const file = npmPack("@anthropic-ai/claude-code-darwin-arm64@2.1.332");
    const before = process.resourceUsage().maxRSS * 1024;
    const t = performance.now();
    const c = openContainer(file);
    const ms = performance.now() - t;
    const grew = process.resourceUsage().maxRSS * 1024 - before;
    try {
      const member = statSync(c.file).size;
      await annotate(
        `open darwin-arm64 2.1.332 .tgz: ${ms.toFixed(0)} ms, ${member} byte member, peak RSS grew ${(grew / 1e6).toFixed(0)} MB`,
      );
      expect(member).toBe(383795280);
      expect(c.format).toBe("bun-macho");
      // Buffering the member would cost at least its 383 MB; streaming costs a few MB of chunks.
      expect(grew).toBeLessThan(150e6);
    } finally {
      c.close();
    }
  });
});
