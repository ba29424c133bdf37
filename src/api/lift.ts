/**
 * Library `lift`: an input's tool search as a verified ES module under `out` (the scorer-module contract,
 * docs/scorer-module-contract.md).
 */
import { liftInput, type LiftOptions as StageLiftOptions, type LiftResult } from "../lift/lift.js";
import type { RoutinePack } from "../routines/pack.js";
import type { ProgressOptions } from "./progress.js";

export type { LiftResult };

export interface LiftOptions extends ProgressOptions {
  /** Output folder: the module goes to `<out>/<client>/<version>/<platform>/tool-search.mjs`. */
  out: string;
  /** Run the module against the release's own code on the corpus (default true). */
  verify?: boolean;
  /** Corpus cases for verification (default 2,000, what the contract is checked on). */
  cases?: number;
  /** Time budget for verification in seconds (default 300). */
  verifyTimeoutS?: number;
  /** Read signatures from this folder instead of the bundled ones. */
  signaturesDir?: string;
  /** The routine lifted (default: tool search). */
  pack?: RoutinePack;
  /** A folder of recorded verifications: a lift of the same program as one recorded there reuses its
   *  verification instead of running it again, and a new verification is recorded there. */
  verifications?: string;
}

export function lift(input: string, options: LiftOptions): Promise<LiftResult> {
  const { verify = true, ...rest } = options;
  return liftInput(input, { ...rest, verify } satisfies StageLiftOptions);
}
