/**
 * Every signature's embedded tests: each `match` snippet is found exactly once, by the variant it
 * names and with the bindings it lists; each `noMatch` look-alike is not found.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { indexByType, matchSignature, roleNames } from "./match-signature.js";
import { parseModule } from "../ast/parse-module.js";
import { compileSignature, loadSignatures, SignatureError } from "./signature.js";

const signatures = loadSignatures();

describe("bundled signatures", () => {
  it("load, and cover the five tool-search routines", () => {
    expect(signatures.map((s) => s.id)).toEqual(expect.arrayContaining(["tool-search/scorer", "tool-search/call"]));
  });

  for (const sig of signatures) {
    describe(sig.id, () => {
      const matches = sig.tests.match ?? [];
      const noMatch = sig.tests.noMatch ?? [];
      it("has embedded tests of both kinds", () => {
        expect(matches.length).toBeGreaterThan(0);
        expect(noMatch.length).toBeGreaterThan(0);
      });
      matches.forEach((t, i) => {
        it(`match #${i + 1}${t.variant ? ` (${t.variant})` : ""}`, () => {
          const ast = parseModule(t.code);
          expect(ast, "test code parses").not.toBeNull();
          const got = matchSignature(sig, indexByType(ast!));
          expect(got).toHaveLength(1);
          if (t.variant) expect(got[0]!.variant).toBe(t.variant);
          if (t.roles) expect(roleNames(sig, got[0]!.bindings)).toMatchObject(t.roles);
        });
      });
      noMatch.forEach((code, i) => {
        it(`no match #${i + 1}`, () => {
          const ast = parseModule(code);
          expect(ast, "test code parses").not.toBeNull();
          expect(matchSignature(sig, indexByType(ast!))).toEqual([]);
        });
      });
    });
  }
});

describe("signature validation", () => {
  it("rejects a pattern that does not parse, and a malformed regex marker", () => {
    const base = { id: "x/y", summary: "", markers: [], roles: {} };
    expect(() => compileSignature({ ...base, variants: [{ name: "a", anchor: "function (" }] })).toThrow(SignatureError);
    expect(() => compileSignature({ ...base, markers: [{ regex: "select" }], variants: [{ name: "a", anchor: "f()" }] })).toThrow(
      SignatureError,
    );
    expect(() => compileSignature({ ...base, variants: [] })).toThrow(SignatureError);
  });

  it("says which field of a signature file is wrong, on one line", () => {
    const dir = mkdtempSync(join(tmpdir(), "signature-"));
    try {
      const variant = { name: "a", anchor: "f()", has: ["g()", 3] };
      writeFileSync(join(dir, "bad.json"), JSON.stringify({ id: "x/y", variants: [variant] }));
      expect(() => loadSignatures(dir)).toThrow(/^bad\.json: variants\[0\]\.has\[1\]: Invalid input: expected string, received number$/);
      writeFileSync(join(dir, "bad.json"), JSON.stringify({ id: "x/y", variants: [{ name: "a", anchor: "f()", linked: { role: "Q" } }] }));
      expect(() => loadSignatures(dir)).toThrow(/^bad\.json: variants\[0\]\.linked\.signature: /);
      writeFileSync(join(dir, "bad.json"), JSON.stringify({ id: "X", variants: [variant] }));
      expect(() => loadSignatures(dir)).toThrow(/^bad\.json: id: not a signature id/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("compiled lazily, parses a variant's patterns when they are first used, and fails there", () => {
    const spec = {
      id: "x/y",
      summary: "",
      markers: [],
      roles: {},
      variants: [
        { name: "a", anchor: "f($X)", has: ["$X.y"] },
        { name: "b", anchor: "function (" },
      ],
    };
    const sig = compileSignature(spec, "<inline>", { lazy: true });
    expect(sig.variants[0]!.anchors[0]!.root.type).toBe("CallExpression");
    expect(sig.variants[0]!.has).toHaveLength(1);
    expect(() => sig.variants[1]!.anchors).toThrow(/variant b anchor/);
    expect(() => compileSignature(spec)).toThrow(/variant b anchor/);
  });

  it("loads only the signatures asked for, in id order", () => {
    expect(loadSignatures(undefined, ["tool-search/scorer", "tool-search/call"]).map((s) => s.id)).toEqual([
      "tool-search/call",
      "tool-search/scorer",
    ]);
  });
});
