/**
 * `diff`'s behaviour view (and so each of track's change points) ends in bounded time whatever the modules do:
 * a module that spins or recurses without end on its calls fails in seconds (exit 14), once a few of its calls
 * have timed out or overflowed the stack; and one that is merely slow on every call is stopped at the view's
 * overall wall-clock bound, which the view reports rather than passing over in silence.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { behaviourView, sandboxScript, type ModuleSide } from "../src/diff/behaviour.js";
import { ExitCode } from "../src/errors.js";
import { runCli } from "./helpers/cli.js";
import { toolSearchPack } from "../src/routines/tool-search/index.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-host-bounds-diff-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TAIL =
  "async function scoreTools() { return []; }\nasync function toolSearch() { return []; }\nexport { searchTools, scoreTools, toolSearch };\n";

function write(name: string, searchTools: string): string {
  const path = join(dir, name);
  writeFileSync(path, searchTools + "\n" + TAIL);
  return path;
}

const good = () =>
  write(
    "good.mjs",
    "async function searchTools(query, deferred) { return deferred.filter((t) => t.name.includes(query)).map((t) => t.name).slice(0, 5); }",
  );

function diff(a: string, b: string) {
  const t0 = Date.now();
  const r = runCli(["diff", a, b, "--json"], { timeout: 300_000 });
  return { code: r.code, stderr: r.stderr, seconds: (Date.now() - t0) / 1000 };
}

describe("diff on modules that never answer", () => {
  it("a module that spins on every call: exit 14 after a few timed-out calls, in seconds (not a batch's calls × 2 s)", () => {
    const r = diff(write("spins.mjs", "async function searchTools() { for (;;) {} }"), good());
    expect([r.code, r.stderr.trim().split("\n").length]).toEqual([ExitCode.brokenModule, 1]);
    expect(r.stderr).toMatch(/spins\.mjs: the lifted module failed in the sandbox: not run: 3 calls timed out \(over 2000 ms each\)/);
    expect(r.seconds).toBeLessThan(60);
  });

  it("a module that recurses without end: exit 14 after a few stack overflows, in seconds", () => {
    const r = diff(
      good(),
      write(
        "recurses.mjs",
        "async function deep(n) { return deep(n + 1); }\nasync function searchTools(query, deferred) { await Promise.all(deferred.map(() => deep(0))); return []; }",
      ),
    );
    expect([r.code, r.stderr.trim().split("\n").length]).toEqual([ExitCode.brokenModule, 1]);
    expect(r.stderr).toMatch(/recurses\.mjs: the lifted module failed in the sandbox: not run: 3 calls overflowed the stack/);
    expect(r.seconds).toBeLessThan(60);
  });
});

describe("the behaviour view's overall bound", () => {
  const side = (path: string, text: string): ModuleSide => ({ text, script: sandboxScript(text, path), label: path });

  it("a module slow on every call (under the call timeout) is stopped at the bound, and the view says so first", async () => {
    const slowText =
      "async function searchTools(query, deferred) { const t = Date.now(); while (Date.now() - t < 300) {} return []; }\n" + TAIL;
    const goodText = "async function searchTools(query, deferred) { return deferred.map((t) => t.name).slice(0, 5); }\n" + TAIL;
    const t0 = Date.now();
    // The budget alone would let the search run 3000 calls of 300 ms: the bound stops it at 4 s.
    const view = await behaviourView(side("good.mjs", goodText), side("slow.mjs", slowText), { cases: 3000 }, toolSearchPack, 4);
    const seconds = (Date.now() - t0) / 1000;
    expect(seconds).toBeLessThan(30);
    expect(view.behaviour.stopped).toMatch(/^the behaviour search reached its overall bound of 4 s after \d+ cases/);
    expect(view.behaviour.sentences[0]).toBe(`stopped: ${view.behaviour.stopped}`);
    // Calls the bound stopped are not compared: no witness rests on them.
    for (const w of view.behaviour.changed) expect(JSON.stringify([w.before, w.after])).not.toMatch(/sandbox stopped/);
  }, 120_000);
});
