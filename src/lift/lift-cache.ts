/**
 * `lift`'s cache: a lift is kept under a key made of the input's content (sha256 of the file, or of a package
 * folder's files), its file name (the module's provenance names it), the searchlift that lifted it (version and
 * build) and the options that change the module (routine, verification and its cases). Lifting the same input
 * again with the same searchlift copies the kept module to --out instead of lifting and verifying again. Only
 * lifts that succeeded are kept: a failure is tried again. With --signatures nothing is kept or reused (the
 * signatures are not part of the key).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCache } from "../cache-dir.js";
import { inputHash } from "../check/input-hash.js";
import { isClientName, isPlatform, isVersionOrUnknown } from "../release-names.js";
import { pathInside, writeFilesInside } from "../safe-write.js";
import { isAcceptedAgreement } from "../verify/shared-verification.js";
import { VERSION } from "../version.js";
import type { LiftResult } from "./lift.js";

/** Raised when what is kept changes form: entries of another form are lifted again. */
const FORM = 1;
const ENTRY = "lift.json";

export function defaultLiftCache(): string {
  return defaultCache("lift");
}

/** What makes a lift the same: every part changes the module written, or whether it was verified. */
export interface LiftKeyParts {
  input: string;
  routine: string;
  verify: boolean;
  cases: number;
}

/** The key of a lift of `parts.input` by this searchlift, and its input's sha256 (the lift's provenance records it). */
export async function liftKey(cache: string, parts: LiftKeyParts): Promise<{ key: string; sha256: string }> {
  const sha256 = await inputHash(parts.input, cache);
  const key = createHash("sha256")
    .update(JSON.stringify([FORM, VERSION, buildDigest(), sha256, basename(parts.input), parts.routine, parts.verify, parts.cases]))
    .digest("hex");
  return { key, sha256 };
}

/** The lift kept under `key`, written under `out` as a fresh lift would be; null when there is none this searchlift made. */
export function reuseLift(cache: string, key: string, out: string, input: string): LiftResult | null {
  const dir = join(cache, key);
  let kept: Kept;
  try {
    kept = JSON.parse(readFileSync(join(dir, ENTRY), "utf8")) as Kept;
  } catch {
    return null;
  }
  if (!isUsable(kept)) return null;
  let module: string, declarations: string;
  try {
    module = readFileSync(join(dir, "module"), "utf8");
    declarations = readFileSync(join(dir, "declarations"), "utf8");
  } catch {
    return null;
  }
  // The same places a lift writes to (lift.ts): <out>/<client>/<version>/<platform>/<routine>.mjs and .d.ts.
  const target = pathInside(out, kept.result.client, kept.result.version, kept.result.platform);
  const files: Array<[string, string]> = [
    [join(target, kept.moduleName), module],
    [join(target, kept.declarationsName), declarations],
  ];
  writeFilesInside(out, target, files);
  return { ...kept.result, input, module: files[0]![0], declarations: files[1]![0] };
}

/** Keep a lift that succeeded under `key` (written whole or not at all; a failure to keep it is not the lift's). */
export function keepLift(cache: string, key: string, r: LiftResult): void {
  const dir = join(cache, key);
  let tmp: string | undefined;
  try {
    mkdirSync(cache, { recursive: true });
    tmp = mkdtempSync(`${dir}.tmp-`);
    const { input: _i, module: _m, declarations: _d, ...result } = r;
    writeFileSync(join(tmp, "module"), readFileSync(r.module));
    writeFileSync(join(tmp, "declarations"), readFileSync(r.declarations));
    const kept: Kept = {
      form: FORM,
      searchlift: VERSION,
      build: buildDigest(),
      moduleName: basename(r.module),
      declarationsName: basename(r.declarations),
      result,
    };
    writeFileSync(join(tmp, ENTRY), JSON.stringify(kept, null, 2) + "\n");
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch {
    // A cache that cannot be written (or another lift of the same input kept it first) costs nothing more.
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

interface Kept {
  form: number;
  searchlift: string;
  build: string;
  moduleName: string;
  declarationsName: string;
  result: Omit<LiftResult, "input" | "module" | "declarations">;
}

/** An entry this searchlift (version and build) wrote, whose names could have come from a lift. */
function isUsable(k: Kept): boolean {
  if (k?.form !== FORM || k.searchlift !== VERSION || k.build !== buildDigest()) return false;
  const r = k.result;
  if (!r || typeof r.version !== "string" || !isVersionOrUnknown(r.version) || typeof r.platform !== "string" || !isPlatform(r.platform))
    return false;
  if (typeof r.client !== "string" || !isClientName(r.client)) return false;
  // File names only: a plain name, never a path or a dot name.
  for (const name of [k.moduleName, k.declarationsName]) if (typeof name !== "string" || !/^[\w-][\w.-]*$/.test(name)) return false;
  return r.verified === null || isAcceptedAgreement(r.verified);
}

let build: string | undefined;

/**
 * The running searchlift's own code, so that a rebuilt searchlift of the same version does not reuse what an
 * earlier build lifted: the bundle the CLI runs (scripts/bundle.mjs), or, without one, the version alone.
 */
function buildDigest(): string {
  if (build !== undefined) return build;
  const bundle = fileURLToPath(new URL("../bundle/main.cjs", import.meta.url));
  build = existsSync(bundle) ? createHash("sha256").update(readFileSync(bundle)).digest("hex") : "unbundled";
  return build;
}
