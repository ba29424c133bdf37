#!/usr/bin/env node
/**
 * Speed and memory goals, measured side by side in one run on a real release (never in a timed test).
 *   npm run bench [-- --runs N]
 * Inputs come from the npm registry through the same cache the tests use (~/.cache/searchlift).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure as placeholderShare } from "../scripts/placeholders.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 5) || 5;
const cache = process.env.SEARCHLIFT_TEST_CACHE ?? join(homedir(), ".cache", "searchlift");

function fetchMember(spec, member) {
  const tag = spec.replace(/^@/, "").replace(/[/@]/g, "-");
  const out = join(cache, "unpacked", tag, member);
  if (existsSync(out)) return out;
  const npmDir = join(cache, "npm");
  mkdirSync(npmDir, { recursive: true });
  const tgz = join(npmDir, `${tag}.tgz`);
  if (!existsSync(tgz)) {
    const tmp = join(npmDir, `.bench-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    execFileSync("npm", ["pack", spec, "--pack-destination", tmp, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
    renameSync(join(tmp, readdirSync(tmp).find((f) => f.endsWith(".tgz"))), tgz);
    rmSync(tmp, { recursive: true, force: true });
  }
  const tmp = join(cache, "unpacked", tag, `.bench-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  execFileSync("tar", ["-xzf", tgz, "-C", tmp, member]);
  mkdirSync(dirname(out), { recursive: true });
  renameSync(join(tmp, member), out);
  rmSync(tmp, { recursive: true, force: true });
  return out;
}

/** Median wall time (ms) and peak RSS (MB) of a command over `runs` runs, after one warm-up. */
function measure(cmd, args, { node = false, runs: n = runs } = {}) {
  const times = [];
  let rss = 0;
  for (let i = 0; i <= n; i++) {
    const t0 = process.hrtime.bigint();
    const r = node
      ? spawnSync(process.execPath, ["--import", join(root, "bench/rss-reporter.mjs"), ...args], { encoding: "utf8", maxBuffer: 1 << 30 })
      : spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 30 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0 && !(cmd === "grep" && r.status === 1)) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
    const m = /@@maxrss (\d+)/.exec(r.stderr ?? "");
    if (m) rss = Math.max(rss, Number(m[1]) / 1024);
    if (i > 0 || n === 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], rssMB: node ? rss : null };
}

const bin = join(root, "bin", "searchlift.js");
if (!existsSync(join(root, "dist", "cli", "main.js"))) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });

const spec = "@anthropic-ai/claude-code-linux-x64@2.1.332";
const file = fetchMember(spec, "package/claude");
const rows = [];
const goals = [];
const show = (name, r) => rows.push([name, r.ms, r.rssMB]);

// extract (issue: listing faster than grep, peak RSS < 150 MB)
const list = measure(null, [bin, "extract", file, "--list", "--json"], { node: true });
const grep = measure("grep", ["-c", "ToolSearch", file]);
show("extract --list", list);
show("grep -c ToolSearch", grep);
goals.push([`extract --list faster than grep (${list.ms.toFixed(0)} < ${grep.ms.toFixed(0)} ms)`, list.ms < grep.ms]);
goals.push([`extract --list peak RSS < 150 MB (${list.rssMB.toFixed(0)} MB)`, list.rssMB < 150]);

// locate (goals: <= 1.5x grep of one marker, >= 20x faster than parsing every module, RSS <= 300 MB)
const loc = measure(null, [bin, "locate", file, "--json"], { node: true });
const grepMarker = measure("grep", ["-c", "max_results", file]);
const naive = measure(null, [join(root, "bench/naive-parse.mjs"), file], { node: true, runs: 1 });
show("locate (all five routines)", loc);
show("grep -c max_results", grepMarker);
show("naive: acorn-parse every JS module", naive);
goals.push([`locate <= 1.5x grep (${(loc.ms / grepMarker.ms).toFixed(2)}x)`, loc.ms <= 1.5 * grepMarker.ms]);
goals.push([`locate >= 20x faster than naive (${(naive.ms / loc.ms).toFixed(1)}x)`, naive.ms >= 20 * loc.ms]);
goals.push([`locate peak RSS <= 300 MB (${loc.rssMB.toFixed(0)} MB)`, loc.rssMB <= 300]);

// lift (goal, on 2.1.332: <= 2x grep without verification, RSS <= 300 MB).
const liftSpec = spec;
const liftFile = file;
const liftOut = join(cache, "bench-lifted");
const liftFast = measure(null, [bin, "lift", liftFile, "--out", liftOut, "--no-verify"], { node: true, runs: 3 });
const liftFull = measure(null, [bin, "lift", liftFile, "--out", liftOut], { node: true, runs: 1 });
const grepLift = measure("grep", ["-c", "max_results", liftFile]);
show(`lift --no-verify (${liftSpec})`, liftFast);
show("lift, verified on 2,000 cases", liftFull);
show("grep -c max_results (same file)", grepLift);
// Readability of what the lift wrote (issue 11: at most 5% placeholders).
const lifted = readdirSync(liftOut, { recursive: true }).find((f) => String(f).includes("2.1.332") && String(f).endsWith("tool-search.mjs"));
const names = placeholderShare(readFileSync(join(liftOut, String(lifted)), "utf8"));
goals.push([`placeholders <= 5% of identifier references in the lifted module (${(100 * names.share).toFixed(1)}%, ${names.placeholders}/${names.references}; ${names.lines} lines)`, names.share <= 0.05]);
goals.push([`lift --no-verify <= 2x grep on ${liftSpec} (${(liftFast.ms / grepLift.ms).toFixed(2)}x)`, liftFast.ms <= 2 * grepLift.ms]);
goals.push([`lift peak RSS <= 300 MB (${Math.max(liftFast.rssMB, liftFull.rssMB).toFixed(0)} MB)`, Math.max(liftFast.rssMB, liftFull.rssMB) <= 300]);

// track (goal: 20 cached releases, warm, <= 3 s; the cold per-release rate printed beside the lift figure).
const trackSpecs = ["2.0.70", "2.0.76", "2.1.3", "2.1.7", "2.1.10", "2.1.14", "2.1.19", "2.1.64", "2.1.111", "2.1.112"].map((v) => [`@anthropic-ai/claude-code@${v}`, "package/cli.js"]);
trackSpecs.push(["@anthropic-ai/claude-code-linux-x64@2.1.110", "package/claude"], ["@anthropic-ai/claude-code-linux-x64@2.1.124", "package/claude"]);
const trackInputs = [...trackSpecs.map(([spec, member]) => fetchMember(spec, member)), ...readdirSync(join(root, "samples/releases")).map((f) => join(root, "samples/releases", f))];
const trackCache = join(cache, `bench-track-${process.pid}`);
const trackOut = join(trackCache, "out");
const cold = measure(null, [bin, "track", ...trackInputs, "--out", trackOut, "--cache", trackCache, "--no-verify"], { node: true, runs: 0 });
const warm = measure(null, [bin, "track", ...trackInputs, "--out", trackOut, "--cache", trackCache, "--no-verify"], { node: true, runs: 5 });
rmSync(trackCache, { recursive: true, force: true });
show(`track, cold, ${trackInputs.length} releases (--no-verify)`, cold);
show(`  per release`, { ms: cold.ms / trackInputs.length, rssMB: null });
show(`track, warm, ${trackInputs.length} releases`, warm);
goals.push([`track of ${trackInputs.length} cached releases, warm, <= 3 s (${warm.ms.toFixed(0)} ms)`, trackInputs.length >= 20 && warm.ms <= 3000]);

console.log(`searchlift bench — median of ${runs} runs after a warm-up (naive: 1 run); peak RSS of the searchlift process`);
console.log(`input: ${spec} (${file})\n`);
const w = Math.max(...rows.map((r) => r[0].length));
for (const [name, ms, rss] of rows) console.log(`${name.padEnd(w)}  ${ms.toFixed(1).padStart(9)} ms  ${rss == null ? "" : rss.toFixed(1).padStart(7) + " MB"}`);
console.log("");
for (const [g, ok] of goals) console.log(`${ok ? "met   " : "MISSED"}  ${g}`);
