/**
 * The README's library example runs as written (issue 42): its code block is taken out of README.md and run by
 * node in an empty project where `searchlift` is this package (its built entry), so versions resolve through the
 * release cache as the CLI's do. It fetches releases from the npm registry when they are not cached: skipped
 * under SEARCHLIFT_SKIP_REAL=1.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { skipWithoutNetwork } from "./helpers/network-gate.js";

const ROOT = join(import.meta.dirname, "..");
const project = mkdtempSync(join(tmpdir(), "searchlift-readme-library-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The first ```js block after the README's "## Library" heading. */
export function libraryExample(readme: string): string {
  const section = readme.slice(readme.indexOf("\n## Library\n"));
  const m = /```js\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error("README.md: no js block under ## Library");
  return m[1]!;
}

describe("README: the library example", () => {
  it("is found in README.md and imports from searchlift", () => {
    const code = libraryExample(readFileSync(join(ROOT, "README.md"), "utf8"));
    expect(code).toMatch(/from "searchlift"/);
  });

  it("runs as written in a project that has searchlift installed", () => {
    skipWithoutNetwork("the example's releases (2.1.111, 2.1.112)");
    mkdirSync(join(project, "node_modules"));
    symlinkSync(ROOT, join(project, "node_modules", "searchlift"), "dir");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "readme-example", private: true, type: "module" }));
    writeFileSync(join(project, "example.mjs"), libraryExample(readFileSync(join(ROOT, "README.md"), "utf8")));
    const r = spawnSync(process.execPath, ["example.mjs"], { cwd: project, encoding: "utf8", timeout: 1_500_000, maxBuffer: 64 << 20 });
    expect(r.status, r.stderr.slice(-4000)).toBe(0);
    // What the comments in the example say it prints and writes.
    expect(r.stdout).toMatch(/^\/.*\/lifted\/claude-code\/2\.1\.112\/npm\/tool-search\.mjs \{/);
    expect(r.stdout).toMatch(/cases: 2000, agreed: 2000/);
    expect(r.stderr).toMatch(/^lift: /m);
    expect(existsSync(join(project, "timeline", "timeline.json"))).toBe(true);
    const t = JSON.parse(readFileSync(join(project, "timeline", "timeline.json"), "utf8"));
    expect(t.releases.map((x: { version: string }) => x.version)).toEqual(["2.1.111", "2.1.112"]);
  }, 1_600_000);
});
