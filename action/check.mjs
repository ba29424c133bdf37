// The GitHub Action's step (action.yml): searchlift check with the action's inputs, read from the environment,
// its Markdown appended to the job summary and named in the step's outputs; the step fails as check exits.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const env = process.env;
const bin = fileURLToPath(new URL("../bin/searchlift.js", import.meta.url));
const args = ["check", "--markdown"];
const flag = (name, value) => {
  if (value !== undefined && value.trim() !== "") args.push(name, value.trim());
};
flag("--server", env.SEARCHLIFT_SERVER);
flag("--url", env.SEARCHLIFT_URL);
flag("--tools", env.SEARCHLIFT_TOOLS);
flag("--releases", env.SEARCHLIFT_RELEASES || "latest");
for (const line of (env.SEARCHLIFT_EXPECT ?? "").split("\n")) flag("--expect", line);
flag("--expectations", env.SEARCHLIFT_EXPECTATIONS);
flag("--max-rank", env.SEARCHLIFT_MAX_RANK);
flag("--baseline", env.SEARCHLIFT_BASELINE);
const usage = (message) => {
  console.error(`searchlift action: ${message}`);
  process.exit(2);
};
// A workflow's boolean input arrives as text; unset is action.yml's default.
const suggest = (env.SEARCHLIFT_SUGGEST ?? "false").trim().toLowerCase();
if (!["true", "false", ""].includes(suggest)) usage(`suggest must be true or false, not ${JSON.stringify(env.SEARCHLIFT_SUGGEST)}`);
if (suggest === "true") args.push("--suggest");
const failOn = (env.SEARCHLIFT_FAIL_ON ?? "expect").trim(); // unset: as action.yml's default
if (failOn === "expect" && args.some((a) => a === "--expect" || a === "--expectations")) args.push("--fail-on-expect");
else if (failOn === "unfound") args.push("--fail-on-unfound");
else if (!["", "expect"].includes(failOn)) usage(`fail-on must be expect, unfound or empty, not ${JSON.stringify(failOn)}`);

const run = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 });
const markdown = run.stdout ?? "";
const report = join(env.RUNNER_TEMP || mkdtempSync(join(tmpdir(), "searchlift-action-")), "searchlift-check.md");
writeFileSync(report, markdown);
process.stdout.write(markdown);
if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown);
if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `report=${report}\n`);
process.exit(run.status ?? 1);
