/**
 * Library `diff`: what changed in the tool search between two inputs (releases or lifted modules).
 */
import { diffInputs, type DiffOptions as StageDiffOptions, type DiffResult } from "../diff/diff.js";
import { checkOutput } from "../output-folder.js";
import { resolveApiInput, type InputOptions } from "./inputs.js";
import { defaultPack } from "../clients/claude-code.js";
import type { RoutinePack } from "../routines/pack.js";

export type { DiffResult };

export interface DiffOptions extends Omit<StageDiffOptions, "pack">, InputOptions {
  /** The routine compared (default: the wiring's, src/clients/claude-code.ts: tool search). */
  pack?: RoutinePack;
}

/**
 * `a`, `b`: a release file, package or script, a version (`2.1.111`, fetched into the release cache as the CLI
 * does), or a lifted `tool-search.mjs`.
 */
export async function diff(a: string, b: string, options: DiffOptions = {}): Promise<DiffResult> {
  const { platform: _p, releaseCache: _c, ...rest } = options;
  // The output first: nothing is fetched or lifted for an output that would be refused.
  if (options.out) checkOutput(options.out, "diff");
  const [fa, fb] = [await resolveApiInput(a, "diff", options), await resolveApiInput(b, "diff", options)];
  return diffInputs(fa, fb, { ...rest, pack: options.pack ?? (await defaultPack()) });
}
