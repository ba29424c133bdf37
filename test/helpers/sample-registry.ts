/**
 * A stand-in registry for library tests: each sample release as the cli.js package of that version, served by
 * fake-npm.mjs through SEARCHLIFT_NPM, so that versions and ranges resolve with no network.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const RELEASES = join(import.meta.dirname, "..", "..", "samples", "releases");
const FAKE_NPM = join(import.meta.dirname, "fake-npm.mjs");

/** Packs `versions` into `work`/registry and points npm at it (extra variables too); returns what undoes the env. */
export function useSampleRegistry(work: string, versions: readonly string[], env: Record<string, string> = {}): () => void {
  const registry = join(work, "registry");
  mkdirSync(join(registry, "anthropic-ai-claude-code"), { recursive: true });
  for (const v of versions) {
    const pkg = join(work, `pkg-${v}`, "package");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "cli.js"), readFileSync(join(RELEASES, v)));
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@anthropic-ai/claude-code", version: v, bin: { claude: "cli.js" } }));
    const tgz = join(registry, "anthropic-ai-claude-code", `${v}.tgz`);
    const tar = spawnSync("tar", ["-czf", tgz, "-C", join(work, `pkg-${v}`), "package"]);
    if (tar.status !== 0) throw new Error(`tar failed for ${v}: ${String(tar.stderr)}`);
  }
  chmodSync(FAKE_NPM, 0o755);
  const set: Record<string, string> = { SEARCHLIFT_NPM: FAKE_NPM, FAKE_NPM_REGISTRY: registry, ...env };
  const saved = Object.fromEntries(Object.keys(set).map((k) => [k, process.env[k]]));
  Object.assign(process.env, set);
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
