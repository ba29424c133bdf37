/**
 * The carver scans in bounded chunks: on a 256 MB unknown binary its peak memory must stay far
 * below the file size. In a file of its own so the process's peak RSS before the scan is a baseline.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { noise } from "./helpers/noise.js";
import { FileByteSource } from "../src/extract/byte-source.js";
import { carveScripts } from "../src/extract/carve.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-carve-mem-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROGRAM = Buffer.from(
  "function rank(tools, q) {\n  const s = q.toLowerCase();\n  return tools.filter((t) => t.name.toLowerCase().includes(s)).sort((a, b) => a.name.length - b.name.length);\n}\nmodule.exports = { rank, version: '1.0.0', note: 'carved from the middle of a large unknown binary' };\n",
);

describe("carve memory", () => {
  it("carves a 256 MB file with two embedded programs, peak RSS growing far less than the file", async ({ annotate }) => {
    const file = join(dir, "big.bin");
    const block = noise(1 << 20, 42);
    const fd = openSync(file, "w");
    const at: number[] = [];
    let pos = 0;
    for (let i = 0; i < 256; i++) {
      if (i === 100 || i === 200) {
        writeSync(fd, Buffer.from([0]));
        at.push(pos + 1);
        writeSync(fd, PROGRAM);
        writeSync(fd, Buffer.from([0]));
        pos += PROGRAM.length + 2;
      }
      writeSync(fd, block);
      pos += block.length;
    }
    closeSync(fd);

    const before = process.resourceUsage().maxRSS * 1024;
    const t = performance.now();
    const c = carveScripts(new FileByteSource(file), file);
    const ms = performance.now() - t;
    const grew = process.resourceUsage().maxRSS * 1024 - before;
    await annotate(`carve of ${pos} bytes: ${ms.toFixed(0)} ms, peak RSS grew ${(grew / 1e6).toFixed(0)} MB`);
    expect(c.modules.map((m) => [m.start, m.end])).toEqual(at.map((a) => [a, a + PROGRAM.length]));
    c.close();
    expect(grew).toBeLessThan(100e6);
  });
});
