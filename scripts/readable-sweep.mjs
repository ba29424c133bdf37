#!/usr/bin/env node
/**
 * Issue 44's must-hold, over many releases: each is lifted and verified on 2000 cases (one at a time), and its
 * module measured by idioms.mjs (the minifier's idioms, code lines over 120 characters with string literals
 * emptied, effect-free statements) and placeholders.mjs (placeholder share, misfit names); then the rename churn
 * from each release to the next of its platform (placeholders.mjs's renameChurn), beside that of a baseline sweep
 * when one is given. Prints a Markdown report; exits 1 when a release breaks the must-hold.
 *
 *   node scripts/readable-sweep.mjs [--out DIR] [--baseline DIR] [--no-verify] [--reuse] [--min N] [input…]
 *
 * Inputs are release tarballs; without any, every release in the release cache (~/.cache/searchlift or
 * SEARCHLIFT_TEST_CACHE: npm/ and releases/<version>/<platform>/), one per version and platform. `--out` is where
 * the lifts go (default /tmp/searchlift-sweep), one folder per release with the lift's JSON; `--reuse` measures
 * the lifts already there instead of lifting again. `--baseline` is the `--out` of an earlier sweep (say, of the
 * commit before a change, with `--no-verify`): its churn is printed beside, and the modules whose code differs
 * from it are listed. `--min` fails the sweep with fewer releases (default 40).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure as idioms } from "./idioms.mjs";
import { codeOf, measure as placeholders, renameChurn } from "./placeholders.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The idiom counts that must be 0 (long lines are judged with their string literals emptied, `longCode`). */
const IDIOMS = ["decls", "void0", "bool", "ctl", "seq", "else", "oneLine", "wrapped", "noop"];

const versionKey = (v) =>
  v
    .split(".")
    .map((p) => p.padStart(5, "0"))
    .join(".");

/** { version, platform, file } for a tarball the release cache names as npm's or a platform package's. */
function releaseOf(file) {
  const m = basename(file).match(/^anthropic-ai-claude-code-(?:([a-z0-9-]+?)-)?(\d+\.\d+\.\d+)\.tgz$/);
  return m ? { version: m[2], platform: m[1] ?? "npm", file } : null;
}

/** Every release in the cache, one per version and platform; npm packages after 2.1.112 hold no cli.js and are left out. */
function cachedReleases(cache) {
  const found = new Map();
  const add = (file) => {
    const r = releaseOf(file);
    if (!r || (r.platform === "npm" && versionKey(r.version) > versionKey("2.1.112"))) return;
    found.set(`${r.platform} ${r.version}`, found.get(`${r.platform} ${r.version}`) ?? r);
  };
  const releases = join(cache, "releases");
  if (existsSync(releases))
    for (const v of readdirSync(releases).filter((d) => /^\d/.test(d)))
      for (const p of readdirSync(join(releases, v)))
        for (const f of readdirSync(join(releases, v, p)).filter((f) => f.endsWith(".tgz"))) add(join(releases, v, p, f));
  if (existsSync(join(cache, "npm"))) for (const f of readdirSync(join(cache, "npm"))) add(join(cache, "npm", f));
  return [...found.values()];
}

/** The lifted module under `dir`, or null. */
function moduleIn(dir) {
  if (!existsSync(dir)) return null;
  const f = readdirSync(dir, { recursive: true }).find((x) => String(x).endsWith("tool-search.mjs"));
  return f ? join(dir, String(f)) : null;
}

/** Lift `r` into `dir` (verified unless `verify` is false); the lift's result, or its error. */
function lift(r, dir, verify) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = [join(root, "bin", "searchlift.js"), "lift", r.file, "--out", join(dir, "lift"), "--no-lift-cache", "--json", "-q"];
  let result;
  try {
    const out = execFileSync(process.execPath, verify ? args : [...args, "--no-verify"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 << 20,
    });
    result = { exit: 0, ...JSON.parse(out).results[0] };
  } catch (e) {
    const error = String(e.stderr ?? e.message)
      .split("\n")
      .find((l) => /error|fail|inconclusive/i.test(l));
    // A failed verification still prints the lift's result.
    let printed = {};
    try {
      printed = JSON.parse(e.stdout).results[0] ?? {};
    } catch {
      // Nothing printed: the lift itself failed.
    }
    result = { exit: e.status ?? 1, error: error?.trim() ?? `exit ${e.status}`, ...printed };
  }
  writeFileSync(join(dir, "result.json"), JSON.stringify(result, null, 2));
  return result;
}

function main(argv) {
  const option = (name, fallback) => {
    const i = argv.indexOf(name);
    return i < 0 ? fallback : argv.splice(i, 2)[1];
  };
  const out = option("--out", "/tmp/searchlift-sweep");
  const baseline = option("--baseline", null);
  const min = Number(option("--min", "40"));
  const verify = !argv.includes("--no-verify");
  const reuse = argv.includes("--reuse");
  const inputs = argv.filter((a) => !a.startsWith("--"));
  if (argv.some((a) => a.startsWith("--") && a !== "--no-verify" && a !== "--reuse") || !Number.isInteger(min)) {
    console.error("usage: node scripts/readable-sweep.mjs [--out DIR] [--baseline DIR] [--no-verify] [--reuse] [--min N] [input…]");
    process.exit(2);
  }
  const cache = process.env.SEARCHLIFT_TEST_CACHE ?? join(homedir(), ".cache", "searchlift");
  const releases = inputs.length
    ? inputs.map((f) => releaseOf(f) ?? { version: basename(f), platform: "input", file: f })
    : cachedReleases(cache);
  releases.sort((a, b) => a.platform.localeCompare(b.platform) || versionKey(a.version).localeCompare(versionKey(b.version)));
  const rows = [];
  for (const r of releases) {
    const dir = join(out, `${r.platform}-${r.version}`);
    const result =
      reuse && existsSync(join(dir, "result.json")) ? JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) : lift(r, dir, verify);
    const file = moduleIn(join(dir, "lift"));
    const row = { ...r, result, file };
    if (file) {
      const text = readFileSync(file, "utf8");
      row.idioms = idioms(text).counts;
      row.placeholders = placeholders(text);
    }
    const v = result.verified;
    row.verified = typeof v === "object" ? `${v.agreed}/${v.cases}` : result.exit ? `exit ${result.exit}` : "not verified";
    const problems = [];
    if (!file) problems.push(`no module (${result.error ?? "lift failed"})`);
    if (verify && !(typeof v === "object" && v.cases === 2000 && v.agreed === 2000)) problems.push(`verified ${row.verified}`);
    if (file) {
      for (const k of IDIOMS) if (row.idioms[k] > 0) problems.push(`${k} ${row.idioms[k]}`);
      if (row.idioms.longCode > 0) problems.push(`${row.idioms.longCode} code lines over 120`);
      if (row.placeholders.placeholders > 0) problems.push(`placeholders ${(100 * row.placeholders.share).toFixed(1)}%`);
      if (row.placeholders.misfits.length > 0) problems.push(`misfit names ${row.placeholders.misfits.map((m) => m.name).join(", ")}`);
    }
    row.problems = problems;
    rows.push(row);
    console.error(`${r.platform} ${r.version}: ${row.verified}${problems.length ? `; ${problems.join("; ")}` : ""}`);
  }

  console.log(`| release | platform | verified | lines | idioms (${IDIOMS.join(", ")}) | code lines >120 | placeholders | misfits |`);
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of rows) {
    const idiomCount = r.idioms ? IDIOMS.reduce((s, k) => s + r.idioms[k], 0) : "—";
    const share = r.placeholders ? `${(100 * r.placeholders.share).toFixed(1)}%` : "—";
    console.log(
      `| ${r.version} | ${r.platform} | ${r.verified} | ${r.placeholders?.lines ?? "—"} | ${idiomCount} | ${r.idioms?.longCode ?? "—"} | ${share} | ${r.placeholders?.misfits.length ?? "—"} |`,
    );
  }

  // Churn from each release to the next of its platform, here and in the baseline.
  console.log("\n| from → to | platform | renamed (of names, in functions unchanged but for names) | baseline |");
  console.log("| --- | --- | --- | --- |");
  const total = { renamed: 0, names: 0, baseRenamed: 0, baseNames: 0 };
  let worse = 0;
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    if (a.platform !== b.platform || !a.file || !b.file) continue;
    const c = renameChurn(readFileSync(a.file, "utf8"), readFileSync(b.file, "utf8"));
    total.renamed += c.renamed;
    total.names += c.names;
    let before = "—";
    if (baseline) {
      const [fa, fb] = [a, b].map((r) => moduleIn(join(baseline, `${r.platform}-${r.version}`, "lift")));
      if (fa && fb) {
        const cb = renameChurn(readFileSync(fa, "utf8"), readFileSync(fb, "utf8"));
        total.baseRenamed += cb.renamed;
        total.baseNames += cb.names;
        before = `${cb.renamed} of ${cb.names}`;
        // Worse: a larger share of the names renamed than before.
        if (c.renamed * cb.names > cb.renamed * c.names) worse++;
      }
    }
    console.log(`| ${a.version} → ${b.version} | ${a.platform} | ${c.renamed} of ${c.names} | ${before} |`);
  }
  const churnLine = `rename churn: ${total.renamed} of ${total.names} names`;
  console.log(`\n${churnLine}${baseline ? `; baseline ${total.baseRenamed} of ${total.baseNames}, ${worse} pairs worse` : ""}`);

  if (baseline) {
    // Which modules the change altered: their code, header and provenance aside.
    const changed = rows.filter((r) => {
      const before = moduleIn(join(baseline, `${r.platform}-${r.version}`, "lift"));
      return r.file && before && codeOf(readFileSync(r.file, "utf8")) !== codeOf(readFileSync(before, "utf8"));
    });
    console.log(
      `\ncode changed from the baseline: ${changed.length ? changed.map((r) => `${r.platform} ${r.version}`).join(", ") : "none"}`,
    );
  }
  const failed = rows.filter((r) => r.problems.length > 0);
  console.log(`\n${rows.length} releases, ${failed.length} breaking the must-hold${failed.length ? ":" : "."}`);
  for (const r of failed) console.log(`- ${r.platform} ${r.version}: ${r.problems.join("; ")}`);
  if (rows.length < min) console.log(`fewer releases than the ${min} asked for`);
  if (failed.length > 0 || rows.length < min || worse > 0) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
