/**
 * The GitHub Action (action.yml) as a workflow runs it: its inputs reach the step only through the environment,
 * and the step's script (action/check.mjs), run here with the variables the runner sets, writes the Markdown to
 * the job summary, names the report in the step's outputs and fails as check does.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;
const action = readFileSync(join(root, "action.yml"), "utf8");

function step(inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "searchlift-action-"));
  const env = {
    ...process.env,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`SEARCHLIFT_${k.toUpperCase().replace(/-/g, "_")}`, v])),
    GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
    GITHUB_OUTPUT: join(dir, "output"),
    RUNNER_TEMP: dir,
    GITHUB_ACTION_PATH: root,
  };
  const r = spawnSync(process.execPath, [join(root, "action", "check.mjs")], { cwd: root, env, encoding: "utf8" });
  const read = (f: string) => {
    try {
      return readFileSync(join(dir, f), "utf8");
    } catch {
      return "";
    }
  };
  return { status: r.status, stderr: r.stderr, summary: read("summary.md"), output: read("output") };
}

describe("the GitHub Action", () => {
  it("passes its inputs through the environment, never spliced into a command", () => {
    const runs = action.split("\n").filter((l) => /^\s*run:/.test(l));
    expect(runs.length).toBeGreaterThan(0);
    for (const line of runs) expect(line).not.toMatch(/\$\{\{/);
    for (const input of ["server", "url", "tools", "releases", "expect", "expectations", "max-rank", "baseline", "suggest", "fail-on"])
      expect(action).toContain(`\${{ inputs.${input} }}`);
  });

  const server = "node samples/mcp-server/server.mjs";
  const release = "samples/releases/0.7.0";

  it("writes the table to the job summary and names the report; met expectations pass", () => {
    const r = step({ server, releases: release, expect: "weather forecast=>get_forecast@1\ngeocode=>geocode.lookup" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.summary).toMatch(/2 of 2 expectations met on every release/);
    expect(r.summary).toMatch(/\| `weather forecast` \| `mcp__weather_demo__get_forecast` \| top 1 \| ✅ 1 \|/);
    const report = /^report=(.+)$/m.exec(r.output)?.[1];
    expect(report && readFileSync(report, "utf8")).toBe(r.summary);
  }, 120_000);

  it("fails the step with check's exit code when an expectation is missed, the summary still written", () => {
    const r = step({ server, releases: release, expect: "geocode=>get_forecast@1" });
    expect(r.status).toBe(19);
    expect(r.summary).toMatch(/❌/);
  }, 120_000);

  it("suggest: the measured edits for each missed expectation go to the job summary; without it, none", () => {
    const inputs = { server, releases: release, expect: "alerts storm=>get_forecast@1" };
    const advised = step({ ...inputs, suggest: "true" });
    expect(advised.status, advised.stderr).toBe(19);
    const section = advised.summary.split("**Suggested edits**")[1]?.split("\n\n**")[0] ?? "";
    expect(section, advised.summary).toContain("- `alerts storm` → `mcp__weather_demo__get_forecast`");
    // Each edit with the rank it gives on the release, measured: not returned now (—), placed after.
    const edits = section.split("\n").filter((l) => l.startsWith("  - "));
    expect(edits.length).toBeGreaterThan(0);
    for (const e of edits) expect(e).toMatch(/: 0\.7\.0 — → \d+/);
    expect(step(inputs).summary).not.toContain("Suggested edits");
    const bad = step({ ...inputs, suggest: "yes" });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('searchlift action: suggest must be true or false, not "yes"');
  }, 180_000);

  it("refuses an unknown fail-on with a usage error", () => {
    const r = step({ server, releases: release, "fail-on": "sometimes" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/fail-on must be expect, unfound or empty/);
  });
});
