/**
 * Real releases lifted for the reference tests, cached outside the checkout under a key made of the lifter's
 * own sources: a change to the lift relifts, a rerun reads the cache.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { liftInput } from "../../src/lift/lift.js";
import { cacheDir, npmPackMember } from "../helpers/cache.js";
import { toolSearchPack } from "../../src/routines/tool-search/index.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** The lifter's identity: every source file and signature it reads. */
export function lifterKey(): string {
  const h = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (!name.endsWith(".test.ts")) h.update(p.slice(ROOT.length)).update(readFileSync(p));
    }
  };
  walk(join(ROOT, "src"));
  walk(join(ROOT, "signatures"));
  return h.digest("hex").slice(0, 16);
}

export async function liftedModule(spec: string, member: string, key: string): Promise<string> {
  const out = cacheDir("reference-lifts", key, spec.replace(/^@/, "").replace(/[/@]/g, "-"));
  const found = readdirSync(out, { recursive: true })
    .map(String)
    .find((p) => p.endsWith("tool-search.mjs"));
  if (found && existsSync(join(out, found))) return join(out, found);
  return (await liftInput(npmPackMember(spec, member), { out, verify: false, pack: toolSearchPack })).module;
}
