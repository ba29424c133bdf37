/**
 * A verification compares two programs on a corpus; its outcome is a function of those programs and that
 * corpus. Two lifts in one process (check's releases, an API user's loop) whose originals are the same
 * program (same-program.ts) and whose lifted code is the same share one verification: the second waits for
 * the first's outcome instead of running the 12,000 calls again. Adjacent releases usually carry the same
 * routine, so this is the common case. Nothing is kept beyond the process.
 */
import { createHash } from "node:crypto";
import { programKey } from "./same-program.js";
import type { VerifyResult } from "./verify.js";

const runs = new Map<string, Promise<VerifyResult>>();

/** What decides a verification's outcome; null when the original's program cannot be keyed. */
export function verificationKey(routine: string, cases: number, original: string, lifted: string): string | null {
  const program = programKey(original);
  if (program === null) return null;
  const liftedHash = createHash("sha256").update(lifted).digest("hex");
  return `${routine}\0${cases}\0${program}\0${liftedHash}`;
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
