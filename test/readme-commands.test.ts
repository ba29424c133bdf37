/**
 * The README's shell commands run as written (issue 42): every line of its ```sh blocks is taken out of README.md
 * and run by npx in an empty project where `searchlift` is this package (node_modules/searchlift and its bin),
 * as a user who installed it runs them. Commands that name a release (or rank with `latest`, as check does by
 * default) need the npm registry or the release cache: they run with the user's caches and are skipped under
 * SEARCHLIFT_SKIP_REAL=1. The one that lifts and verifies every bundled sample (`track` with no input) runs in the
 * full tier only; the unit tier's cheaper check of it is cli.test.ts's track of two samples. The npm lines (install,
 * build, the test tiers) are not run here — a test cannot run the suite it is part of, and `npm ci` would replace
 * the node_modules the suite runs from — but what each names must exist: the lock file, the scripts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { skipWithoutNetwork } from "./helpers/network-gate.js";

const ROOT = join(import.meta.dirname, "..");
const work = mkdtempSync(join(tmpdir(), "searchlift-readme-commands-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Each command of the README's ```sh blocks, in order: a line's `# comment` dropped, `a && b` as two commands. */
export function readmeCommands(readme: string): string[] {
  const commands: string[] = [];
  for (const m of readme.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of m[1]!.split("\n")) {
      const code = line.replace(/\s+#.*$/, "").trim();
      if (code && !code.startsWith("#")) commands.push(...code.split("&&").map((c) => c.trim()));
    }
  return commands;
}

/** A command line's words as a POSIX shell splits these (spaces; double or single quotes around a word's parts). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/(?:"([^"]*)"|'([^']*)'|([^\s"']+))+/g)) words.push(m[0].replace(/"([^"]*)"|'([^']*)'/g, "$1$2"));
  return words;
}

const commands = readmeCommands(readFileSync(join(ROOT, "README.md"), "utf8"));
const searchlift = commands.filter((c) => c.startsWith("npx searchlift ") || c === "npx searchlift");
const npm = commands.filter((c) => /^npm /.test(c));

/** Whether a searchlift command reaches for the registry or the release cache: it names a release, or ranks with `latest`. */
function needsNetwork(args: string[]): boolean {
  return args.some((a) => /\b\d+\.\d+\.\d+\b|^latest$/.test(a)) || (args[0] === "check" && !args.includes("--releases"));
}

/** A fresh project with searchlift installed (linked), the README's `node server.js` beside it (the sample MCP server). */
function project(): string {
  const dir = mkdtempSync(join(work, "project-"));
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules", "searchlift"), "dir");
  symlinkSync(join("..", "searchlift", "bin", "searchlift.js"), join(dir, "node_modules", ".bin", "searchlift"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "readme-commands", private: true, type: "module" }));
  const server = pathToFileURL(join(ROOT, "samples", "mcp-server", "server.mjs")).href;
  writeFileSync(join(dir, "server.js"), `import ${JSON.stringify(server)};\n`);
  return dir;
}

/** Run `line` as written, in a fresh project; offline commands get a HOME of their own, with no Claude Code installed. */
function runAsWritten(line: string, online: boolean) {
  const cwd = project();
  const home = join(cwd, "home");
  mkdirSync(home);
  const words = shellWords(line);
  const r = spawnSync(words[0]!, words.slice(1), {
    cwd,
    encoding: "utf8",
    timeout: 3_500_000,
    maxBuffer: 256 << 20,
    // npx finds searchlift in the project and asks the registry for no update notice. Offline commands run with npm
    // offline too, so nothing reaches the registry; online ones leave it reachable, since fetch asks npm for releases.
    env: {
      ...process.env,
      HOME: online ? homedir() : home,
      ...(online ? {} : { npm_config_offline: "true" }),
      npm_config_update_notifier: "false",
    },
  });
  return { cwd, code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("README: the shell commands", () => {
  it("are all npm's or searchlift's, and the npm ones name what exists (the lock file, the scripts)", () => {
    expect(searchlift.length).toBeGreaterThanOrEqual(9);
    expect(commands.filter((c) => !searchlift.includes(c) && !npm.includes(c))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    for (const c of npm) {
      const [, verb, script] = shellWords(c);
      if (verb === "ci") expect(existsSync(join(ROOT, "package-lock.json")), c).toBe(true);
      else if (verb === "test") expect(pkg.scripts.test, c).toBeTruthy();
      else if (verb === "run") expect(pkg.scripts[script!], c).toBeTruthy();
      else throw new Error(`README: an npm command this test does not know: ${c}`);
    }
  });

  for (const line of searchlift) {
    const args = shellWords(line).slice(2);
    const online = needsNetwork(args);
    // Every bundled sample lifted and verified, and each change point's behaviour: minutes of CPU, full tier only.
    const heavy = !online && args[0] === "track";
    it.skipIf(heavy && process.env.SEARCHLIFT_TIER === "unit")(
      `${line}${online ? " (the registry, or the release cache)" : ""}`,
      () => {
        if (online) skipWithoutNetwork(`what ${line} runs on`);
        const r = runAsWritten(line, online);
        expect(r.code, `${line}\n${r.stderr.slice(-4000)}`).toBe(0);
        // What the README says each writes, where it says so.
        if (args[0] === "track") {
          for (const f of ["timeline.json", "timeline.md", "timeline.html"]) expect(existsSync(join(r.cwd, "timeline", f)), f).toBe(true);
          const releases = (JSON.parse(readFileSync(join(r.cwd, "timeline", "timeline.json"), "utf8")) as { releases: unknown[] }).releases;
          // No input and no Claude Code installed: the bundled samples, said on stderr.
          if (args.length === 1) {
            expect(r.stderr).toMatch(/samples/);
            expect(releases).toHaveLength(readdirSync(join(ROOT, "samples", "releases")).filter((f) => /^\d+\.\d+\.\d+$/.test(f)).length);
          }
        }
        if (args[0] === "history") expect(existsSync(join(r.cwd, "history", "changelog.md"))).toBe(true);
        if (args[0] === "lift") expect(r.stdout).toMatch(/verified: 2000\/2000 cases agree/);
        if (args[0] === "check") expect(r.stdout).toMatch(/get_forecast/);
      },
      heavy || online ? 3_600_000 : 600_000,
    );
  }
});
