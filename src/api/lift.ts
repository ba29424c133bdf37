/**
 * Library `lift`: an input's tool search as a verified ES module under `out` (the scorer-module contract,
 * docs/scorer-module-contract.md).
 */
import { liftInput, type LiftOptions as StageLiftOptions, type LiftResult } from "../lift/lift.js";
import { checkOutput } from "../output-folder.js";
import { resolveApiInput, resolveApiInputs, type InputOptions } from "./inputs.js";
import type { RoutinePack } from "../routines/pack.js";
import { defaultPack } from "../clients/claude-code.js";
import type { ProgressOptions } from "../progress.js";

export type { LiftResult };

export interface LiftOptions extends ProgressOptions, InputOptions {
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
  /** The routine lifted (default: the wiring's, src/clients/claude-code.ts: tool search). */
  pack?: RoutinePack;
  /** A folder of recorded verifications: a lift of the same program as one recorded there reuses its
   *  verification instead of running it again, and a new verification is recorded there. */
  verifications?: string;
}

/**
 * `input`: a release file, package folder or `.tgz`, a script, or a version (`2.1.112`, `claude-code@latest`),
 * fetched into the release cache as the CLI does. An array may also hold ranges (`2.1.110-2.1.112`): each
 * release is lifted in turn, and the results come in order (the first failure rejects).
 */
export async function lift(input: string, options: LiftOptions): Promise<LiftResult>;
export async function lift(inputs: string[], options: LiftOptions): Promise<LiftResult[]>;
export async function lift(input: string | string[], options: LiftOptions): Promise<LiftResult | LiftResult[]> {
  const { verify = true, platform: _p, releaseCache: _c, ...rest } = options;
  // The output first: nothing is fetched or lifted for an output that would be refused.
  checkOutput(options.out, "lift");
  const pack = options.pack ?? (await defaultPack());
  if (typeof input === "string")
    return liftInput(await resolveApiInput(input, "lift", options), { ...rest, verify, pack } satisfies StageLiftOptions);
  const files = await resolveApiInputs(input, "lift", options, { ranges: true, folders: false });
  const results: LiftResult[] = [];
  for (const file of files) results.push(await liftInput(file, { ...rest, verify, pack } satisfies StageLiftOptions));
  return results;
}
