/**
 * The package as npm ships it: what `npm pack` puts in it, and that an install of the packed tarball runs the
 * README's main command (`npx searchlift track`) on the bundled sample releases with no Claude Code installed,
 * and verifies a lift (the sandbox's child program and the declarations come from the installed files).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "./helpers/cli.js";

const SKIP_REAL = !!process.env.SEARCHLIFT_SKIP_REAL;

interface PackedFile {
  path: string;
}

function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return (JSON.parse(out) as Array<{ files: PackedFile[] }>)[0]!.files.map((f) => f.path);
}

describe("npm pack", () => {
  it("ships the compiled and bundled CLI, signatures, sample releases, the contract and the licence, and no sources or source maps", () => {
    const files = packedFiles();
    for (const f of [
      "bin/searchlift.js",
      "dist/cli/main.js",
      "dist/bundle/main.cjs",
      "dist/bundle/main.code-cache",
      "dist/index.js",
      "dist/index.d.ts",
      "LICENSE",
      "README.md",
      "docs/scorer-module-contract.md",
    ])
      expect(files).toContain(f);
    const signatures = readdirSync(join(ROOT, "signatures", "tool-search")).map((f) => `signatures/tool-search/${f}`);
    const samples = readdirSync(join(ROOT, "samples", "releases"))
      .filter((f) => /^\d+\.\d+\.\d+$/.test(f))
      .map((f) => `samples/releases/${f}`);
    expect(samples.length).toBeGreaterThan(0);
    for (const f of [...signatures, ...samples]) expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith("src/") || f.startsWith("test/") || f.endsWith(".map"))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg.license).toBe("MIT");
    expect(pkg.repository).toBeTruthy();
    expect((pkg.scripts as Record<string, string>).prepare).toBeUndefined();
  });

  it("the command line starts from the code cache the build made: V8 takes it", () => {
    const r = runCli(["--version"], { timeout: 0, env: { SEARCHLIFT_DEBUG: "1" } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("code cache: used\n");
  });

  it.skipIf(SKIP_REAL)("an install of the packed tarball runs `searchlift track` on its samples, without npm warnings", () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-pack-"));
    execFileSync("npm", ["pack", "--pack-destination", dir, "--silent"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    const app = join(dir, "app");
    const install = spawnSync("npm", ["install", join(dir, tgz), "--prefix", app, "--no-audit", "--no-fund", "--prefer-offline"], {
      encoding: "utf8",
    });
    expect(install.status).toBe(0);
    expect(install.stderr).not.toMatch(/npm warn/i);
    // A HOME with no Claude Code: track falls back to the bundled samples and says so.
    const r = spawnSync(
      process.execPath,
      [
        join(app, "node_modules", "searchlift", "bin", "searchlift.js"),
        "track",
        "--no-verify",
        "--out",
        join(dir, "timeline"),
        "--cache",
        join(dir, "cache"),
      ],
      {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, HOME: join(dir, "home") },
        timeout: 300_000,
      },
    );
    expect(r.stderr).toMatch(/samples/);
    expect(r.status).toBe(0);
    const timeline = JSON.parse(readFileSync(join(dir, "timeline", "timeline.json"), "utf8")) as {
      releases: Array<{ routineHash: string | null }>;
    };
    const samples = readdirSync(join(ROOT, "samples", "releases")).filter((f) => /^\d+\.\d+\.\d+$/.test(f));
    expect(timeline.releases).toHaveLength(samples.length);
    expect(timeline.releases.filter((r) => r.routineHash)).toHaveLength(samples.length);
    // Verification runs the sandbox's child program (dist/verify/runner/child.js) from the installed package.
    const lift = spawnSync(
      process.execPath,
      [
        join(app, "node_modules", "searchlift", "bin", "searchlift.js"),
        "lift",
        "--json",
        "--cases",
        "50",
        "--out",
        join(dir, "lifted"),
        join(ROOT, "samples", "releases", samples[0]!),
      ],
      {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, HOME: join(dir, "home") },
        timeout: 300_000,
      },
    );
    expect(lift.status, lift.stderr).toBe(0);
    const version = spawnSync(process.execPath, [join(app, "node_modules", "searchlift", "bin", "searchlift.js"), "--version"], {
      encoding: "utf8",
      env: { ...process.env, SEARCHLIFT_DEBUG: "1" },
    });
    expect(version.stderr).toBe("code cache: used\n");
    const lifted = JSON.parse(lift.stdout) as { results: Array<{ verified: unknown; declarations: string }> };
    expect(lifted.results[0]!.verified).toEqual({ cases: 50, agreed: 50, bothReturned: 50, bothThrew: 0 });
    expect(readFileSync(lifted.results[0]!.declarations, "utf8")).toBe(
      readFileSync(join(ROOT, "signatures", "tool-search", "lifted-module.d.ts"), "utf8"),
    );
  });
});
