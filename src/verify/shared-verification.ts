/**
 * A verification compares two programs on a corpus; its outcome is a function of those programs and that
 * corpus. Two lifts whose originals are the same program (same-program.ts) and whose lifted code is the
 * same share one verification. Adjacent releases usually carry the same routine, so this is the common case.
 *
 * In one process (check's releases, an API user's loop) the second lift waits for the first's outcome. Across
 * processes (track's lifts, one check run and the next) a folder of records does it: a lift given one reads
 * an agreement recorded there, and records its own once the lift has accepted it.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../safe-write.js";
import { VERSION } from "../version.js";
import { programKey } from "./same-program.js";
import type { VerifyResult } from "./verify.js";

const runs = new Map<string, Promise<VerifyResult>>();

/** What decides a verification's outcome; null when the original's program cannot be keyed. */
export function verificationKey(routine: string, cases: number, original: string, lifted: string): string | null {
  const program = programKey(original);
  if (program === null) return null;
  const liftedHash = createHash("sha256").update(lifted).digest("hex");
  // The corpus and the comparison are this searchlift's: another version may verify differently.
  return createHash("sha256").update(`searchlift ${VERSION}\0${routine}\0${cases}\0${program}\0${liftedHash}`).digest("hex");
}

/** The outcome of the verification under `key`: one already run or running in this process, or `run()`'s. */
export function sharedVerification(
  key: string | null,
  run: () => Promise<VerifyResult>,
): { outcome: Promise<VerifyResult>; shared: boolean } {
  const known = key === null ? undefined : runs.get(key);
  if (known) return { outcome: known, shared: true };
  const outcome = run();
  if (key !== null) {
    runs.set(key, outcome);
    // A run that failed to answer (its time budget, a child that would not start) says nothing of the programs.
    outcome.catch(() => runs.delete(key));
  }
  return { outcome, shared: false };
}

/** An agreement on every case, as recorded. */
export interface Agreement {
  cases: number;
  agreed: number;
}

/** The agreement recorded under `key` in `dir`, if any; anything else found there is ignored. */
export function recordedAgreement(dir: string, key: string): Agreement | null {
  try {
    const r = JSON.parse(readFileSync(join(dir, `${key}.json`), "utf8")) as Partial<Agreement> & { key?: unknown };
    const whole = Number.isSafeInteger(r.cases) && r.cases! > 0 && r.agreed === r.cases;
    return r.key === key && whole ? { cases: r.cases!, agreed: r.agreed! } : null;
  } catch {
    return null;
  }
}

/** Record an agreement the lift accepted, for later lifts of the same program. A record is only a shortcut:
 *  a folder it cannot be written to (full, read-only) costs the next lift a verification, not this one its result. */
export function recordAgreement(dir: string, key: string, a: Agreement): void {
  if (a.agreed !== a.cases) return;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(join(dir, `${key}.json`), JSON.stringify({ key, cases: a.cases, agreed: a.agreed }) + "\n");
  } catch {
    // Not recorded.
  }
}
