#!/usr/bin/env node
/**
 * Speed and memory goals, measured side by side in one run on a real release (never in a timed test).
 *   npm run bench [-- --runs N] [-- --only ROW,ROW]
 * ROW is extract, locate, lift, track, check, check-cold, first, diff or history (default: all of them).
 * Inputs come from the npm registry through the same cache the tests use (~/.cache/searchlift).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure as placeholderShare } from "../scripts/placeholders.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 5) || 5;
const ROWS = ["extract", "locate", "lift", "track", "check", "check-cold", "first", "diff", "history"];
const onlyArg = process.argv.includes("--only") ? (process.argv[process.argv.indexOf("--only") + 1] ?? "") : undefined;
const chosen = onlyArg === undefined ? ROWS : onlyArg.split(",").filter(Boolean);
for (const r of chosen.length ? chosen : [""])
  if (!ROWS.includes(r)) {
    process.stderr.write(`bench: --only takes rows among ${ROWS.join(", ")} (got "${onlyArg ?? ""}")\n`);
    process.exit(2);
  }
/** Whether the run measures this row (--only). */
const only = (row) => chosen.includes(row);
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
    renameSync(
      join(
        tmp,
        readdirSync(tmp).find((f) => f.endsWith(".tgz")),
      ),
      tgz,
    );
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

/**
 * Median wall time (ms), median CPU time of the command and every process it waited for (ms; null where
 * /proc is not there), peak RSS (MB) and page faults (of the last run) of a command over `runs` runs, after
 * one warm-up.
 */
function measure(cmd, args, { node = false, runs: n = runs, env = process.env } = {}) {
  const times = [];
  const cpus = [];
  let rss = 0;
  let faults = null;
  for (let i = 0; i <= n; i++) {
    const cpu0 = childrenCpuMs();
    const t0 = process.hrtime.bigint();
    const r = node
      ? spawnSync(process.execPath, ["--import", join(root, "bench/rss-reporter.mjs"), ...args], {
          encoding: "utf8",
          maxBuffer: 1 << 30,
          env,
        })
      : spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 30, env });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = cpu0 === null ? null : childrenCpuMs() - cpu0;
    if (r.status !== 0 && !(cmd === "grep" && r.status === 1)) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
    const m = /@@maxrss (\d+) (\d+)/.exec(r.stderr ?? "");
    if (m) {
      rss = Math.max(rss, Number(m[1]) / 1024);
      faults = Number(m[2]);
    }
    if (i > 0 || n === 0) {
      times.push(ms);
      cpus.push(cpu);
    }
  }
  return { ms: median(times), cpuMs: medianCpu(cpus), rssMB: node ? rss : null, faults };
}

/**
 * The user and system CPU time of this process's children that have been waited for (and of theirs, as each
 * waited for its own), in ms, from /proc/self/stat; null where there is no /proc. A command's CPU is the
 * difference across its run: on a machine of few cores it says how much of the wall time was waiting for one.
 */
function childrenCpuMs() {
  if (process.platform !== "linux") return null;
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after the command name (which may hold spaces), from field 3 on: cutime and cstime are 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicks();
}

let ticks;
function clockTicks() {
  ticks ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  return ticks;
}

const bin = join(root, "bin", "searchlift.js");
if (!existsSync(join(root, "dist", "cli", "main.js"))) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });

const spec = "@anthropic-ai/claude-code-linux-x64@2.1.332";
// The release most rows read; not fetched for a run of rows that do not.
const file = ["extract", "locate", "lift", "check"].some(only) ? fetchMember(spec, "package/claude") : null;
const load0 = loadavg();
const rows = [];
const goals = [];
const show = (name, r) => rows.push([name, r.ms, r.cpuMs ?? null, r.rssMB, r.faults ?? null]);

// extract (issue: listing faster than grep, peak RSS < 150 MB)
if (only("extract")) {
  const list = measure(null, [bin, "extract", file, "--list", "--json"], { node: true });
  const grep = measure("grep", ["-c", "ToolSearch", file]);
  show("extract --list", list);
  show("grep -c ToolSearch", grep);
  goals.push([`extract --list faster than grep (${list.ms.toFixed(0)} < ${grep.ms.toFixed(0)} ms)`, list.ms < grep.ms]);
  goals.push([`extract --list peak RSS < 150 MB (${list.rssMB.toFixed(0)} MB)`, list.rssMB < 150]);
}

// locate (goals: <= 1.5x grep of one marker, >= 20x faster than parsing every module, RSS <= 300 MB)
if (only("locate")) {
  const loc = measure(null, [bin, "locate", file, "--json"], { node: true });
  const grepMarker = measure("grep", ["-c", "max_results", file]);
  const naive = measure(null, [join(root, "bench/naive-parse.mjs"), file], { node: true, runs: 1 });
  show("locate (all five routines)", loc);
  show("grep -c max_results", grepMarker);
  show("naive: acorn-parse every JS module", naive);
  goals.push([`locate <= 1.5x grep (${(loc.ms / grepMarker.ms).toFixed(2)}x)`, loc.ms <= 1.5 * grepMarker.ms]);
  goals.push([`locate >= 20x faster than naive (${(naive.ms / loc.ms).toFixed(1)}x)`, naive.ms >= 20 * loc.ms]);
  goals.push([`locate peak RSS <= 300 MB (${loc.rssMB.toFixed(0)} MB)`, loc.rssMB <= 300]);
}

// lift (goal, on 2.1.332: <= 2x grep without verification, RSS <= 300 MB).
if (only("lift")) {
  const liftSpec = spec;
  const liftFile = file;
  const liftOut = join(cache, "bench-lifted");
  const liftFast = measure(null, [bin, "lift", liftFile, "--out", liftOut, "--no-verify"], { node: true, runs: 3 });
  const liftFull = measure(null, [bin, "lift", liftFile, "--out", liftOut], { node: true, runs: 1 });
  const grepLift = measure("grep", ["-c", "max_results", liftFile]);
  show(`lift --no-verify (${liftSpec})`, liftFast);
  show("lift, verified on 2,000 cases", liftFull);
  // The command's time in parts: a process's start (Node and the bundle), and the lift's own work done warm in one
  // process (bench/warm-lift.mjs), its code compiled and hot and its heap grown. The rest is what a fresh process
  // pays to run that code cold and to fault in its heap.
  const start = measure(null, [bin, "--version"], { node: true });
  const liftWarm = Number(execFileSync(process.execPath, [join(root, "bench/warm-lift.mjs"), liftFile, liftOut], { encoding: "utf8" }));
  show("  a process's start (searchlift --version)", start);
  show("  the lift's work, warm in one process (median of 7 after 3)", { ms: liftWarm, rssMB: null });
  show("grep -c max_results (same file)", grepLift);
  // Readability of what the lift wrote (issue 11: at most 5% placeholders).
  const lifted = readdirSync(liftOut, { recursive: true }).find(
    (f) => String(f).includes("2.1.332") && String(f).endsWith("tool-search.mjs"),
  );
  const names = placeholderShare(readFileSync(join(liftOut, String(lifted)), "utf8"));
  goals.push([
    `placeholders <= 5% of identifier references in the lifted module (${(100 * names.share).toFixed(1)}%, ${names.placeholders}/${names.references}; ${names.lines} lines)`,
    names.share <= 0.05,
  ]);
  goals.push([`lift --no-verify <= 2x grep on ${liftSpec} (${(liftFast.ms / grepLift.ms).toFixed(2)}x)`, liftFast.ms <= 2 * grepLift.ms]);
  // Issue goal: verification (sandbox start, corpus, 2,000 cases on both sides) at most doubles the lift's time.
  goals.push([`verified lift <= 2x unverified lift (${(liftFull.ms / liftFast.ms).toFixed(2)}x)`, liftFull.ms <= 2 * liftFast.ms]);
  goals.push([
    `lift peak RSS <= 300 MB (${Math.max(liftFast.rssMB, liftFull.rssMB).toFixed(0)} MB)`,
    Math.max(liftFast.rssMB, liftFull.rssMB) <= 300,
  ]);
}

// track (goal: 20 cached releases, warm, <= 3 s; the cold per-release rate printed beside the lift figure).
if (only("track")) {
  const trackSpecs = ["2.0.70", "2.0.76", "2.1.3", "2.1.7", "2.1.10", "2.1.14", "2.1.19", "2.1.64", "2.1.111", "2.1.112"].map((v) => [
    `@anthropic-ai/claude-code@${v}`,
    "package/cli.js",
  ]);
  trackSpecs.push(
    ["@anthropic-ai/claude-code-linux-x64@2.1.110", "package/claude"],
    ["@anthropic-ai/claude-code-linux-x64@2.1.124", "package/claude"],
  );
  const trackInputs = [
    ...trackSpecs.map(([spec, member]) => fetchMember(spec, member)),
    ...readdirSync(join(root, "samples/releases")).map((f) => join(root, "samples/releases", f)),
  ];
  const trackCache = join(cache, `bench-track-${process.pid}`);
  const trackOut = join(trackCache, "out");
  const cold = measure(null, [bin, "track", ...trackInputs, "--out", trackOut, "--cache", trackCache, "--no-verify"], {
    node: true,
    runs: 0,
  });
  const warm = measure(null, [bin, "track", ...trackInputs, "--out", trackOut, "--cache", trackCache, "--no-verify"], {
    node: true,
    runs: 5,
  });
  rmSync(trackCache, { recursive: true, force: true });
  show(`track, cold, ${trackInputs.length} releases (--no-verify)`, cold);
  show(`  per release`, { ms: cold.ms / trackInputs.length, rssMB: null });
  show(`track, warm, ${trackInputs.length} releases`, warm);
  goals.push([
    `track of ${trackInputs.length} cached releases, warm, <= 3 s (${warm.ms.toFixed(0)} ms)`,
    trackInputs.length >= 20 && warm.ms <= 3000,
  ]);
}

// The made-up catalog of check (warm and cold): 50 tools of a project tracker and 20 queries.
const verbs = ["get", "list", "create", "update", "delete", "search", "export", "import", "sync", "archive"];
const nouns = ["issue", "repo", "branch", "commit", "release"];
const checkTools = verbs.flatMap((v) =>
  nouns.map((n, i) => ({
    name: `${v}_${n}`,
    description: `${v} a ${n} in the project tracker; returns the ${n} as JSON with its id, title and state.`,
    ...(i === 0 ? { _meta: { "anthropic/searchHint": `${n} ${v}` } } : {}),
  })),
);
const checkQueries = Array.from({ length: 20 }, (_, i) => `${verbs[i % 10]} ${nouns[(i * 3) % 5]}${i % 4 === 0 ? " json" : ""}`).join("\n");

// check (goal: warm, 50 tools x 20 queries x 4 releases <= 2 s): the releases lifted once beforehand (warm means
// lifted and cached), a made-up server of 50 tools and 20 queries, every query on every release in the sandbox.
if (only("check")) {
  const checkDir = join(cache, `bench-check-${process.pid}`);
  mkdirSync(checkDir, { recursive: true });
  const checkInputs = [
    fetchMember("@anthropic-ai/claude-code@2.0.70", "package/cli.js"),
    fetchMember("@anthropic-ai/claude-code@2.1.112", "package/cli.js"),
    fetchMember("@anthropic-ai/claude-code-linux-x64@2.1.124", "package/claude"),
    file,
  ];
  const checkModules = checkInputs.map((input, i) => {
    const out = join(checkDir, `lifted-${i}`);
    execFileSync(process.execPath, [bin, "lift", input, "--out", out, "--no-verify"], { stdio: ["ignore", "ignore", "inherit"] });
    return readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.name === "tool-search.mjs")
      .map((e) => join(e.parentPath, e.name))[0];
  });
  writeFileSync(join(checkDir, "tools.json"), JSON.stringify({ serverName: "tracker", tools: checkTools }));
  writeFileSync(join(checkDir, "queries.txt"), checkQueries);
  const checkArgs = [
    bin,
    "check",
    "--tools",
    join(checkDir, "tools.json"),
    "--queries",
    join(checkDir, "queries.txt"),
    "--releases",
    checkModules.join(","),
    "--json",
  ];
  const checkWarm = measure(null, checkArgs, { node: true });
  const checkExplain = measure(null, [...checkArgs, "--explain"], { node: true, runs: 3 });
  rmSync(checkDir, { recursive: true, force: true });
  show("check, warm, 50 tools x 20 queries x 4 releases", checkWarm);
  show("  the same with --explain", checkExplain);
  goals.push([`check, warm, 50 tools x 20 queries x 4 releases <= 2 s (${checkWarm.ms.toFixed(0)} ms)`, checkWarm.ms <= 2000]);
}

// check, cold (goal: dominated by the fetch): one catalog against two releases in neither the release cache nor
// check's lift cache nor npm's own cache (which fetch copies a tarball out of when it holds one), beside the two
// fetches alone (run at once, as check runs them) into other empty caches.
// Both vary by a fifth from run to run on a shared machine, so they alternate, each pair in fresh caches, and
// the medians are compared.
if (only("check-cold")) {
  const coldVersions = ["2.1.303", "2.1.304"];
  const coldPairs = Math.max(1, runs);
  const coldDir = join(cache, `bench-check-cold-${process.pid}`);
  const checkTimes = [];
  const checkCpus = [];
  const fetchTimes = [];
  const fetchCpus = [];
  /** check of the two versions through the caches in coldDir, with `queries` (arguments). */
  const checkByVersionArgs = (queries) => [
    bin,
    "check",
    "--tools",
    join(coldDir, "tools.json"),
    ...queries,
    "--releases",
    coldVersions.join(","),
    "--platform",
    "linux-x64",
    "--cache",
    join(coldDir, "releases"),
    "--lift-cache",
    join(coldDir, "lifted"),
    "--json",
  ];
  for (let pair = 0; pair < coldPairs; pair++) {
    rmSync(coldDir, { recursive: true, force: true });
    mkdirSync(coldDir, { recursive: true });
    writeFileSync(join(coldDir, "tools.json"), JSON.stringify({ serverName: "tracker", tools: checkTools }));
    const emptyNpmCache = (name) => ({ ...process.env, npm_config_cache: join(coldDir, name) });
    const coldRun = measure(null, checkByVersionArgs(["--query", "list issue"]), { node: true, runs: 0, env: emptyNpmCache("npm-cache") });
    checkTimes.push(coldRun.ms);
    checkCpus.push(coldRun.cpuMs);
    const fetchCpu0 = childrenCpuMs();
    const fetchT0 = process.hrtime.bigint();
    await Promise.all(
      coldVersions.map(
        (v) =>
          new Promise((done, fail) => {
            const child = spawn(process.execPath, [bin, "fetch", v, "--platform", "linux-x64", "--cache", join(coldDir, "fetch-only")], {
              stdio: "ignore",
              env: emptyNpmCache("npm-cache-fetch-only"),
            });
            child.on("close", (code) => (code === 0 ? done() : fail(new Error(`fetch ${v} exited with ${code}`))));
          }),
      ),
    );
    fetchTimes.push(Number(process.hrtime.bigint() - fetchT0) / 1e6);
    fetchCpus.push(fetchCpu0 === null ? null : childrenCpuMs() - fetchCpu0);
  }
  // The same two, warm, as a user reruns them: by version, 50 tools x 20 queries, from the last pair's caches.
  writeFileSync(join(coldDir, "queries.txt"), checkQueries);
  const checkByVersion = measure(null, checkByVersionArgs(["--queries", join(coldDir, "queries.txt")]), { node: true });
  rmSync(coldDir, { recursive: true, force: true });
  const coldCheck = { ms: median(checkTimes), cpuMs: medianCpu(checkCpus), rssMB: null };
  const fetchBoth = { ms: median(fetchTimes), cpuMs: medianCpu(fetchCpus), rssMB: null };
  const secs = (xs) => xs.map((x) => (x / 1000).toFixed(1)).join(", ");
  show(`check, cold, ${coldVersions.join(" and ")} (fetched, lifted, verified; median of ${secs(checkTimes)} s)`, coldCheck);
  show(`  the two fetches alone (median of ${secs(fetchTimes)} s)`, fetchBoth);
  show(`check, warm, ${coldVersions.join(" and ")} by version, 50 tools x 20 queries`, checkByVersion);
  goals.push([`check, warm, by version <= 2 s (${checkByVersion.ms.toFixed(0)} ms)`, checkByVersion.ms <= 2000]);
  goals.push([
    `cold check dominated by the fetch (fetch ${(fetchBoth.ms / 1000).toFixed(1)} s of ${(coldCheck.ms / 1000).toFixed(1)} s)`,
    fetchBoth.ms * 2 >= coldCheck.ms,
  ]);
}

// first impression (goal: `searchlift track` on a fresh clone, i.e. the bundled samples, verified, with an empty cache, <= 20 s).
if (only("first")) {
  const firstCache = join(cache, `bench-first-${process.pid}`);
  const first = measure(null, [bin, "track", join(root, "samples/releases"), "--out", join(firstCache, "out"), "--cache", firstCache], {
    node: true,
    runs: 0,
  });
  rmSync(firstCache, { recursive: true, force: true });
  show("first-run track on samples (verified, empty cache)", first);
  goals.push([`first-run track on samples <= 20 s (${(first.ms / 1000).toFixed(1)} s)`, first.ms <= 20000]);
}

// diff of two lifted modules, the behaviour search included (goal <= 10 s), and a warm track of the same two
// releases (goal < 1 s: lifts and the change point's behaviour come from the cache).
if (only("diff")) {
  const diffIn = ["2.1.294", "2.1.295"].map((v) => fetchMember(`@anthropic-ai/claude-code-linux-x64@${v}`, "package/claude"));
  const diffCache = join(cache, `bench-diff-${process.pid}`);
  for (const f of diffIn) measure(null, [bin, "lift", f, "--out", join(diffCache, "lifted"), "--no-verify"], { node: true, runs: 0 });
  const mods = ["2.1.294", "2.1.295"].map((v) => join(diffCache, "lifted", "claude-code", v, "linux-x64", "tool-search.mjs"));
  const diff = measure(null, [bin, "diff", ...mods, "--json"], { node: true, runs: Math.min(runs, 3) });
  measure(null, [bin, "track", ...diffIn, "--out", join(diffCache, "out"), "--cache", diffCache, "--no-verify"], { node: true, runs: 0 });
  const warmTrack = measure(null, [bin, "track", ...diffIn, "--out", join(diffCache, "out"), "--cache", diffCache, "--no-verify"], {
    node: true,
    runs,
  });
  rmSync(diffCache, { recursive: true, force: true });
  show("diff 2.1.294 → 2.1.295 (lifted, linux-x64)", diff);
  show("track 2.1.294, 2.1.295, warm", warmTrack);
  goals.push([`diff of two lifted modules <= 10 s (${(diff.ms / 1000).toFixed(1)} s)`, diff.ms <= 10_000]);
  goals.push([`track rerun, warm, < 1 s (${warmTrack.ms.toFixed(0)} ms)`, warmTrack.ms < 1000]);
}

// history (issue 45 goal: at most 3 s per release on average over the whole history, verified, every change point
// explained, releases already downloaded). Two fixed spans, each in a release cache of the bench's own (hard links
// to the cached tarballs), read with --cached into an empty lift cache:
// - the goal's span, every published release from 2.1.97 to 2.1.140 (12 cli.js packages, then 22 linux-x64 builds):
//   7 generations in 34 releases, the whole history's mix (52 in 300), across the change from cli.js to native;
// - a guard span of 32 releases from 2.0.70 to 2.1.334 chosen to cross the routine's generations (25 change points
//   in 32), where nearly every release costs a verification and an explanation: no goal, a watch on their cost.
// The goal's shares of the work: reading (history's fetch stage and the lift's reading of the tarball, from
// extract --list), locating (locate, less that reading), lifting (the unverified lifts, less locate), verifying
// (verified lifts less unverified ones) and explaining (the change points and the timeline). Per-release work is
// summed over the lifts history runs side by side, so the shares are of work, and the wall time is given beside them.
if (only("history")) {
  const native = (from, to, skip = []) =>
    Array.from({ length: to - from + 1 }, (_, k) => from + k)
      .filter((n) => !skip.includes(n))
      .map((n) => [`2.1.${n}`, "linux-x64"]);
  const goalSpan = [
    ...[
      "2.1.97",
      "2.1.98",
      "2.1.100",
      "2.1.101",
      "2.1.104",
      "2.1.105",
      "2.1.107",
      "2.1.108",
      "2.1.109",
      "2.1.110",
      "2.1.111",
      "2.1.112",
    ].map((v) => [v, "npm"]),
    // The versions nobody published for linux-x64 in that range are left out.
    ...native(113, 140, [115, 125, 127, 130, 134, 135]),
  ];
  const guardSpan = [
    ...["2.0.70", "2.0.76", "2.1.10", "2.1.14", "2.1.16", "2.1.19", "2.1.59", "2.1.64", "2.1.67", "2.1.101", "2.1.111", "2.1.112"].map(
      (v) => [v, "npm"],
    ),
    ...[
      "2.1.124",
      "2.1.129",
      "2.1.200",
      "2.1.250",
      "2.1.271",
      "2.1.295",
      "2.1.300",
      "2.1.317",
      "2.1.321",
      "2.1.322",
      "2.1.323",
      "2.1.324",
    ].map((v) => [v, "linux-x64"]),
    ...["2.1.325", "2.1.326", "2.1.327", "2.1.330", "2.1.331", "2.1.332", "2.1.333", "2.1.334"].map((v) => [v, "linux-x64"]),
  ];
  // Wall time and the CPU of the command's whole process tree: on a machine shared with other work the wall
  // time says more about the others than about history.
  // `ok`: the exit codes of a run that did its work (locate exits 7 when one of the routines is absent from a release).
  const timed = (args, ok = [0]) => {
    const cpu0 = childrenCpuMs();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
    if (!ok.includes(r.status)) throw new Error(`searchlift ${args.join(" ")} failed (exit ${r.status}): ${r.stderr}`);
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: cpu0 === null ? null : childrenCpuMs() - cpu0, stdout: r.stdout };
  };
  const historyRun = (spanCache, verify) => {
    const lifts = join(cache, `bench-history-${process.pid}`);
    rmSync(lifts, { recursive: true, force: true });
    const r = timed([
      "history",
      "--cached",
      "--release-cache",
      spanCache,
      "--cache",
      lifts,
      "--out",
      join(lifts, "out"),
      "--json",
      ...(verify ? [] : ["--no-verify"]),
    ]);
    rmSync(lifts, { recursive: true, force: true });
    return { ms: r.ms, cpuMs: r.cpuMs, ...JSON.parse(r.stdout) };
  };
  const spanOf = (name, span) => {
    const spanCache = join(cache, name);
    return { spanCache, tarballs: span.map(([v, p]) => historyRelease(spanCache, v, p)) };
  };

  const goal = spanOf("bench-history-span", goalSpan);
  const unverified = historyRun(goal.spanCache, false);
  const verified = historyRun(goal.spanCache, true);
  let reading = 0;
  let locating = 0;
  for (const t of goal.tarballs) {
    reading += timed(["extract", t, "--list", "--json"]).ms / 1000;
    locating += timed(["locate", t, "--json"], [0, 7]).ms / 1000;
  }
  const work = {
    reading: verified.seconds.reading + reading,
    locating: Math.max(0, locating - reading),
    lifting: Math.max(0, unverified.seconds.lifting - locating),
    verifying: Math.max(0, verified.seconds.lifting - unverified.seconds.lifting),
    explaining: verified.seconds.explaining,
  };
  const total = Object.values(work).reduce((a, b) => a + b, 0);
  const shares = Object.entries(work)
    .map(([k, v]) => `${k} ${((100 * v) / total).toFixed(0)}%`)
    .join(", ");
  const n = goalSpan.length;
  const perRelease = verified.ms / n;
  show(`history, ${n} cached releases 2.1.97–2.1.140, cold, verified (${verified.groups} groups, ${verified.changes} change points)`, {
    ms: verified.ms,
    cpuMs: verified.cpuMs,
    rssMB: null,
  });
  show(`  per release (${shares})`, { ms: perRelease, cpuMs: verified.cpuMs === null ? null : verified.cpuMs / n, rssMB: null });
  show(`history, ${n} cached releases 2.1.97–2.1.140, cold, --no-verify`, { ms: unverified.ms, cpuMs: unverified.cpuMs, rssMB: null });
  goals.push([
    `history, verified, <= 3 s per release over ${n} cached releases (${(perRelease / 1000).toFixed(1)} s; ${verified.lifted} of ${verified.releases} lifted)`,
    n >= 30 && verified.lifted === n && perRelease <= 3000,
  ]);

  const guard = spanOf("bench-history-releases", guardSpan);
  const dense = historyRun(guard.spanCache, true);
  const m = guardSpan.length;
  show(`history, ${m} releases across generations, cold, verified (${dense.groups} groups, ${dense.changes} change points)`, {
    ms: dense.ms,
    cpuMs: dense.cpuMs,
    rssMB: null,
  });
  show(`  per release`, { ms: dense.ms / m, cpuMs: dense.cpuMs === null ? null : dense.cpuMs / m, rssMB: null });
}

const touch = firstTouchCost();
console.log(`searchlift bench — median of ${runs} runs after a warm-up (naive: 1 run); peak RSS of the searchlift process`);
if (file) console.log(`input: ${spec} (${file})`);
const load1 = loadavg();
console.log(
  `load average (1, 5, 15 min) at the start: ${load0.map((x) => x.toFixed(2)).join(", ")}; at the end: ${load1.map((x) => x.toFixed(2)).join(", ")}`,
);
console.log(
  `first touch of a memory page here: ${touch.toFixed(1)} µs (pages: the pages the searchlift process, all its threads but none of its children, touched first — its minor page faults — and their cost at that rate)\n`,
);
const w = Math.max(...rows.map((r) => r[0].length));
for (const [name, ms, cpu, rss, faults] of rows)
  console.log(
    `${name.padEnd(w)}  ${ms.toFixed(1).padStart(9)} ms  ${cpu == null ? " ".repeat(13) : `CPU ${(cpu / 1000).toFixed(2).padStart(6)} s`}` +
      `  ${rss == null ? "" : rss.toFixed(1).padStart(7) + " MB"}` +
      (faults == null ? "" : `  ${String(faults).padStart(7)} pages ≈ ${((faults * touch) / 1000).toFixed(0).padStart(4)} ms`),
  );
console.log("");
for (const [g, ok] of goals) console.log(`${ok ? "met   " : "MISSED"}  ${g}`);

function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** The median of CPU times, or null if any is unknown (no /proc). */
function medianCpu(xs) {
  return xs.includes(null) ? null : median(xs);
}

/**
 * What touching a page of fresh memory costs on this machine (µs per page, median of five): on some virtual
 * machines a page fault costs ten times what it does on bare metal, and a run pays it for every page it uses.
 */
function firstTouchCost() {
  const script = `const n = 64 << 20, b = Buffer.allocUnsafeSlow(n), t = process.hrtime.bigint();
    for (let i = 0; i < n; i += 4096) b[i] = 1;
    console.log(Number(process.hrtime.bigint() - t) / 1e3 / (n / 4096));`;
  return median(Array.from({ length: 5 }, () => Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }))));
}

/**
 * A cached release in a release cache of the bench's own, in fetch's layout (`<version>/<platform>/<tarball>` and
 * its release.json): a hard link to the tarball the test cache holds (`npm/<tag>.tgz`, or the release cache's),
 * packed from the registry once when neither has it.
 */
function historyRelease(spanCache, version, platform) {
  const pkg = platform === "npm" ? "@anthropic-ai/claude-code" : `@anthropic-ai/claude-code-${platform}`;
  const name = `${pkg.replace(/^@/, "").replace(/\//g, "-")}-${version}.tgz`;
  const dir = join(spanCache, version, platform);
  const tarball = join(dir, name);
  if (existsSync(join(dir, "release.json")) && existsSync(tarball)) return tarball;
  const sources = [join(cache, "npm", name), join(cache, "releases", version, platform, name)];
  let source = sources.find((f) => existsSync(f));
  if (!source) {
    const tmp = join(cache, "npm", `.bench-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    execFileSync("npm", ["pack", `${pkg}@${version}`, "--pack-destination", tmp, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
    renameSync(
      join(
        tmp,
        readdirSync(tmp).find((f) => f.endsWith(".tgz")),
      ),
      sources[0],
    );
    rmSync(tmp, { recursive: true, force: true });
    source = sources[0];
  }
  mkdirSync(dir, { recursive: true });
  try {
    linkSync(source, tarball);
  } catch {
    copyFileSync(source, tarball);
  }
  const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  writeFileSync(join(dir, "release.json"), JSON.stringify({ version, platform, package: pkg, tarball: name, integrity }, null, 2) + "\n");
  return tarball;
}
