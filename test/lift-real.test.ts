/**
 * The scorer lift on real releases (cached from the npm registry, never committed): the readable
 * searchTools/scoreTools agree with the release's own minified code on the 2,000-case corpus, the
 * emitted code is pure, and the two releases that share the routine give the same text.
 */
import { describe, expect, it } from "vitest";
import { openContainer } from "../src/index.js";
import { locateRoutines } from "../src/locate/locate.js";
import { loadSignatures } from "../src/locate/signature.js";
import { defaultCorpus } from "../src/normalize/corpus.js";
import { impurities } from "../src/normalize/purity.js";
import { scorerCode } from "../src/normalize/tool-search-code.js";
import { verifyAgreement } from "../src/normalize/verify.js";
import { npmPackMember } from "./helpers/cache.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const scorerSig = loadSignatures().find((s) => s.id === "tool-search/scorer")!;
const corpus = defaultCorpus(1, 2000);

function liftScorer(spec: string, member: string) {
  const c = openContainer(npmPackMember(spec, member));
  try {
    return scorerCode(c, locateRoutines(c, [scorerSig])[0]!, scorerSig);
  } finally {
    c.close();
  }
}

const releases: Array<[string, string]> = [
  ["@anthropic-ai/claude-code@2.0.70", "package/cli.js"],
  ["@anthropic-ai/claude-code@2.1.19", "package/cli.js"],
  ["@anthropic-ai/claude-code@2.1.64", "package/cli.js"],
  ["@anthropic-ai/claude-code@2.1.112", "package/cli.js"],
  ["@anthropic-ai/claude-code-linux-x64@2.1.124", "package/claude"],
];

describe.skipIf(skip)("scorer lift on real releases", () => {
  for (const [spec, member] of releases) {
    it(`${spec}: searchTools and scoreTools agree with the release on ${corpus.length} cases`, async () => {
      const code = liftScorer(spec, member);
      const module = code.readable + "export { searchTools, scoreTools, defaults };\n";
      expect(impurities(module)).toEqual([]);
      const v = await verifyAgreement(code.original, module, corpus, { fns: ["searchTools", "scoreTools"] });
      expect(v.firstDisagreement).toBeUndefined();
      expect(v.agreed).toBe(corpus.length);
      // Agreement must mean something: nearly every call returns a value, not an error on both sides.
      expect(v.bothErrored).toBeLessThan(v.calls / 20);
    });
  }

  it("2.1.111 and 2.1.112 share the routine: the lifted code is the same text", () => {
    const a = liftScorer("@anthropic-ai/claude-code@2.1.111", "package/cli.js").readable;
    const b = liftScorer("@anthropic-ai/claude-code@2.1.112", "package/cli.js").readable;
    expect(a).toBe(b);
    expect(a).toContain("searchToolsByKeywords");
  });
});
