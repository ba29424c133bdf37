/**
 * Under SEARCHLIFT_SKIP_REAL=1 no test touches the network (issue 42): the setup file (test/helpers/network-gate.ts)
 * refuses sockets to other machines in the test's process and stands in for npm in the processes it starts, and
 * a test that tried fails after it. These check the guard itself: each attempt is refused and recorded (and the
 * record is then cleared, so that this file's own tests pass); what stays on this machine is let through.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { runCli } from "./helpers/cli.js";
import { NETWORK_LOG } from "./helpers/network-gate.js";

/** What the guard recorded since `from`, and the record put back as it was (this test meant to try). */
function attemptsSince(from: number): string {
  const text = readFileSync(NETWORK_LOG, "utf8");
  writeFileSync(NETWORK_LOG, text.slice(0, from));
  return text.slice(from);
}

describe.skipIf(process.env.SEARCHLIFT_SKIP_REAL !== "1")("SEARCHLIFT_SKIP_REAL=1: no network", () => {
  it("fetch and https from the test's process are refused and recorded", async () => {
    const from = readFileSync(NETWORK_LOG, "utf8").length;
    await expect(fetch("https://registry.npmjs.org/semver")).rejects.toThrow();
    const https = await import("node:https");
    expect(() => https.get("https://registry.npmjs.org/semver")).toThrow(/SEARCHLIFT_SKIP_REAL=1/);
    expect(attemptsSince(from)).toMatch(/connect registry\.npmjs\.org/);
  });

  it("npm asking the registry, directly or through searchlift fetch, is refused and recorded", () => {
    const from = readFileSync(NETWORK_LOG, "utf8").length;
    const view = spawnSync("npm", ["view", "semver", "version"], { encoding: "utf8" });
    expect(view.status).not.toBe(0);
    expect(view.stderr).toMatch(/SEARCHLIFT_SKIP_REAL=1/);
    const cache = mkdtempSync(join(tmpdir(), "searchlift-offline-"));
    const r = runCli(["fetch", "2.1.112", "--cache", cache], { timeout: 0, env: { SEARCHLIFT_NPM: "" } });
    expect(r.code).toBe(ExitCode.npmFailed);
    const attempts = attemptsSince(from);
    expect(attempts).toMatch(/^npm view semver version$/m);
    expect(attempts).toMatch(/^npm view @anthropic-ai\/claude-code/m);
  });

  it("what stays on this machine is let through: npm's local commands, a local server", async () => {
    const from = readFileSync(NETWORK_LOG, "utf8").length;
    expect(spawnSync("npm", ["--version"], { encoding: "utf8" }).status).toBe(0);
    const server = createServer((_, res) => res.end("ok"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("ok");
    server.close();
    expect(attemptsSince(from)).toBe("");
  });
});
