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
import * as z from "zod/mini";
import { defaultCache } from "../cache-dir.js";
import { inputHash } from "../input-hash.js";
import { isClientName, isPlatform, isVersionOrUnknown } from "../release-names.js";
import { pathInside, writeFilesInside } from "../safe-write.js";
import { parseJsonOrNull } from "../schemas/json.js";
import { isAcceptedAgreement, type Agreement } from "../verify/shared-verification.js";
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
  let kept: z.infer<typeof keptSchema> | null;
  try {
    kept = parseJsonOrNull(keptSchema, readFileSync(join(dir, ENTRY), "utf8"));
  } catch {
    return null;
  }
  if (!kept || kept.searchlift !== VERSION || kept.build !== buildDigest()) return null;
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
  // The rest of the result is what this same searchlift wrote (keepLift).
  return { ...(kept.result as Kept["result"]), input, module: files[0]![0], declarations: files[1]![0] };
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

/** A plain file name, never a path or a dot name. */
const fileName = z.string().check(z.regex(/^[\w-][\w.-]*$/));

/**
 * An entry, as keepLift writes it, whose names could have come from a lift. Of the result, what decides where
 * the module is written and whether it counts as verified is checked; the rest is this searchlift's own writing
 * (the version and build are compared before it is used).
 */
const keptSchema = z.object({
  form: z.literal(FORM),
  searchlift: z.string(),
  build: z.string(),
  moduleName: fileName,
  declarationsName: fileName,
  result: z.looseObject({
    version: z.string().check(z.refine(isVersionOrUnknown)),
    platform: z.string().check(z.refine(isPlatform)),
    client: z.string().check(z.refine(isClientName)),
    verified: z.nullable(z.custom<Agreement>((v) => typeof v === "object" && v !== null && isAcceptedAgreement(v))),
  }),
});

type Kept = Omit<z.infer<typeof keptSchema>, "result"> & { result: Omit<LiftResult, "input" | "module" | "declarations"> };

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
