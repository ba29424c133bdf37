/**
 * The mutation corpus on the sample releases (issue 39), second half: 0.3.1 (0.3.0's code with mangled
 * names), 0.5.0, 0.6.0 and 0.7.0. See mutation-corpus.test.ts. Offline.
 */
import { describe } from "vitest";
import { mutationCorpus } from "./helpers/mutation-corpus.js";

describe("mutation corpus: sample releases 0.3.1 – 0.7.0", async () => {
  await mutationCorpus(["0.3.1", "0.5.0", "0.6.0", "0.7.0"]);
});
