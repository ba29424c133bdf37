/**
 * The scorer lift on samples of ours: bundled and minified with esbuild (names mangled), lifted,
 * and run side by side with the minified original in the sandbox on a corpus. And the samples
 * whose scorer reaches the host through a helper are refused with the name and its place.
 */
import { buildSync } from "esbuild";
import { analyze } from "eslint-scope";
import { parse } from "acorn";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openContainer } from "../../extract/open-container.js";
import { locateRoutines } from "../../locate/locate.js";
import { loadSignatures } from "../../locate/signature.js";
import { defaultCorpus } from "./corpus.js";
import { impurities } from "../../lift/purity.js";
import { LiftError, scorerCode } from "./tool-search-code.js";
import { verifyAgreement } from "../../verify/verify.js";

const SAMPLES = join(import.meta.dirname, "..", "..", "..", "samples");
const scorerSig = loadSignatures().find((s) => s.id === "tool-search/scorer")!;

function minified(entry: string): string {
  const out = buildSync({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    minifyIdentifiers: true,
    minifyWhitespace: true,
    write: false,
    logLevel: "silent",
  });
  const file = join(mkdtempSync(join(tmpdir(), "searchlift-lift-")), "bundle.js");
  writeFileSync(file, out.outputFiles[0]!.text);
  return file;
}

function lift(file: string) {
  const c = openContainer(file);
  try {
    const [scorer] = locateRoutines(c, [scorerSig]);
    return scorerCode(c, scorer!, scorerSig);
  } finally {
    c.close();
  }
}

/** Names of every binding in a module. */
function bindingNames(text: string): string[] {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  const sm = analyze(ast as never, { ecmaVersion: 2022, sourceType: "module" });
  return sm.scopes.flatMap((s) => s.variables.filter((v) => v.identifiers.length > 0).map((v) => v.name));
}

describe("scorer lift on samples", () => {
  const cases = defaultCorpus(7, 300);
  for (const sample of ["mcp-name-substring", "name-parts", "required-terms", "search-hint", "coarse-parts"]) {
    it(`${sample}: the readable scorer agrees with the minified original on ${cases.length} cases`, async () => {
      const code = lift(minified(join(SAMPLES, "tool-search", `${sample}.js`)));
      const module = code.readable + "export { searchTools, scoreTools, defaults };\n";
      expect(impurities(module)).toEqual([]);
      // Readable: every binding has a name we gave it (a role, a curated name, or words from the namer's
      // rules; a class capitalized), none the minifier's, no hash tags.
      expect(bindingNames(module).filter((n) => !/^([a-z][A-Za-z]{2,}|[A-Z][a-z][A-Za-z]+)\d*$/.test(n))).toEqual([]);
      const v = await verifyAgreement(code.original, module, cases, { fns: ["searchTools", "scoreTools"] });
      expect(v.firstDisagreement).toBeUndefined();
      expect(v.agreed).toBe(cases.length);
      // Agreement must mean something: most calls return values, not errors on both sides.
      expect(v.bothErrored).toBeLessThan(v.calls / 10);
    });
  }

  it("a wrong lift is caught: a changed weight disagrees on a small case", async () => {
    const code = lift(minified(join(SAMPLES, "tool-search", "name-parts.js")));
    const broken = code.readable.replace("isMcp ? 12 : 10", "isMcp ? 12 : 9") + "export { searchTools, scoreTools, defaults };\n";
    expect(broken).not.toBe(code.readable + "export { searchTools, scoreTools, defaults };\n");
    const v = await verifyAgreement(code.original, broken, cases, { fns: ["searchTools", "scoreTools"] });
    expect(v.agreed).toBeLessThan(cases.length);
    expect(v.firstDisagreement!.case.deferred.length).toBeLessThanOrEqual(3);
  });
});

describe("scorer lift refuses a routine that reaches the host", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["env-weight", "process", /env-weight\.js:3:\d+/],
    ["child-process", "require", /child-process\.js:3:\d+/],
    ["global-this", "globalThis", /global-this\.js:3:\d+/],
  ];
  for (const [file, name, place] of cases) {
    it(`${file}.js: refused, naming ${name} and where it is`, () => {
      const input = join(SAMPLES, "lift", `${file}.js`);
      expect(() => lift(input)).toThrow(LiftError);
      try {
        lift(input);
      } catch (e) {
        expect((e as Error).message).toContain(`through ${name} `);
        expect((e as Error).message).toMatch(place);
      }
    });
  }
});
