/**
 * Library `diff`: what changed in the tool search between two inputs (releases or lifted modules).
 */
import { diffInputs, type DiffOptions, type DiffResult } from "../diff/diff.js";

export type { DiffOptions, DiffResult };

export function diff(a: string, b: string, options: DiffOptions = {}): Promise<DiffResult> {
  return diffInputs(a, b, options);
}
