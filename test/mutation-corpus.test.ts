/**
 * The mutation corpus on the sample releases (issue 39), first half: future-shaped edits to the scorer of
 * 0.1.0, 0.2.0, 0.3.0 and 0.4.0 (test/helpers/mutants.ts; the kinds in samples/mutants/README.md). For each
 * mutant, `lift` must find and verify the routine 2000/2000, and `diff` against the unedited release must find
 * a behaviour difference exactly when the edit changes behaviour. The other sample releases are in
 * mutation-corpus-b.test.ts, so that vitest runs the halves side by side. Offline.
 */
import { describe } from "vitest";
import { mutationCorpus } from "./helpers/mutation-corpus.js";

describe("mutation corpus: sample releases 0.1.0 – 0.4.0", async () => {
  await mutationCorpus(["0.1.0", "0.2.0", "0.3.0", "0.4.0"]);
});
