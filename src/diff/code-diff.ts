/**
 * The code view of `searchlift diff`: a unified diff of two lifted modules' code, without what
 * differs between any two lifts of the same code (the provenance header comment and the
 * `provenance` object) — the same "code" track hashes (liftedCode). The lift gives stable readable
 * names, so two releases whose tool search differs only in minified names give an empty diff.
 */
import { createTwoFilesPatch } from "diff";
import { liftedCode } from "../lift/lift.js";
import { codeSummary, type CodeSummary } from "./code-summary.js";

export interface CodeDiff {
  changed: boolean;
  /** A unified diff; "" when the code is the same. */
  diff: string;
  /** The definitions that are new, gone or changed, by name. */
  summary: CodeSummary;
}

export function codeDiff(a: { label: string; text: string }, b: { label: string; text: string }): CodeDiff {
  const ca = liftedCode(a.text);
  const cb = liftedCode(b.text);
  if (ca === cb) return { changed: false, diff: "", summary: { added: [], removed: [], changed: [] } };
  return {
    changed: true,
    diff: createTwoFilesPatch(a.label, b.label, ca, cb, undefined, undefined, { context: 3 }),
    summary: codeSummary(a.text, b.text),
  };
}
