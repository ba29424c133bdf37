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
import * as z from "zod/mini";
import { writeFileAtomic } from "../safe-write.js";
import { parseJsonOrNull } from "../schemas/json.js";
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

/**
 * A verification the lift accepted: every case agreed, and what the agreement rests on (verify.ts,
 * VerifyResult): the cases on which every function returned normally on both sides, and those on which
 * some function threw on both (agreeing by failing). It is "verified" only when the first are at least
 * VERIFIED_SHARE of the cases.
 */
export interface Agreement {
  cases: number;
  agreed: number;
  bothReturned: number;
  bothThrew: number;
}

/**
 * The share of cases that must return normally on both sides for a verification to say "verified": an
 * agreement by both sides throwing compares no behaviour, so a routine that throws on a quarter of the corpus
 * proves too little. The real releases return normally on 98% of the corpus (2.1.112: 1965/2000; 2.1.332:
 * 1970/2000; the rest are tools without a field the routine reads, on which the release itself throws).
 */
export const VERIFIED_SHARE = { numerator: 3, denominator: 4, text: "3/4" } as const;

/** Whether `bothReturned` of `cases` is enough for "verified" (at least VERIFIED_SHARE, and some case at all). */
export function returnedEnough(bothReturned: number, cases: number): boolean {
  return cases > 0 && bothReturned * VERIFIED_SHARE.denominator >= cases * VERIFIED_SHARE.numerator;
}

/** The counts as every verdict shows them: "1965 returned normally on both sides, 35 threw on both[, 2 differed]". */
export function outcomeCounts(o: { bothReturned: number; bothThrew: number; differed?: number }): string {
  const differed = o.differed ? `, ${o.differed} differed` : "";
  return `${o.bothReturned} returned normally on both sides, ${o.bothThrew} threw on both${differed}`;
}

/** An accepted verification as lift, track and the module header say it: "2000/2000 cases agree (… )". */
export function agreementText(a: Agreement): string {
  return `${a.agreed}/${a.cases} cases agree (${outcomeCounts(a)})`;
}

/** Whether `a` is an agreement the lift accepts: counts that add up, every case agreeing, enough returning normally. */
export function isAcceptedAgreement(a: Partial<Agreement>): a is Agreement {
  const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  if (!count(a.cases) || !count(a.agreed) || !count(a.bothReturned) || !count(a.bothThrew)) return false;
  return a.agreed === a.cases && a.bothReturned + a.bothThrew === a.agreed && returnedEnough(a.bothReturned, a.cases);
}

/** A count of cases: a whole number, never negative. */
const count = z.int().check(z.gte(0));

/** A record as recordAgreement writes it. */
const recordSchema = z.object({ key: z.string(), cases: count, agreed: count, bothReturned: count, bothThrew: count });

/** The agreement recorded under `key` in `dir`, if any; anything else found there (a record without the counts,
 *  from an earlier searchlift) is ignored. */
export function recordedAgreement(dir: string, key: string): Agreement | null {
  let text: string;
  try {
    text = readFileSync(join(dir, `${key}.json`), "utf8");
  } catch {
    return null;
  }
  const r = parseJsonOrNull(recordSchema, text);
  if (r?.key !== key || !isAcceptedAgreement(r)) return null;
  return { cases: r.cases, agreed: r.agreed, bothReturned: r.bothReturned, bothThrew: r.bothThrew };
}

/** Record an agreement the lift accepted, for later lifts of the same program. A record is only a shortcut:
 *  a folder it cannot be written to (full, read-only) costs the next lift a verification, not this one its result. */
export function recordAgreement(dir: string, key: string, a: Agreement): void {
  if (!isAcceptedAgreement(a)) return;
  try {
    mkdirSync(dir, { recursive: true });
    const { cases, agreed, bothReturned, bothThrew } = a;
    writeFileAtomic(join(dir, `${key}.json`), JSON.stringify({ key, cases, agreed, bothReturned, bothThrew }) + "\n");
  } catch {
    // Not recorded.
  }
}
