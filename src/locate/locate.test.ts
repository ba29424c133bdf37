import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openContainer } from "../extract/open-container.js";
import { locate } from "./locate.js";
import { compileSignature, type SignatureSpec } from "./signature.js";

const spec: SignatureSpec = {
  id: "demo/pick",
  summary: "a function that picks by a select: regex",
  markers: [{ regex: "/^pick:(.+)$/", max: 2 }],
  variants: [
    { name: "strict", anchor: "function $F($Q) { $$$ }", has: ["$Q.match(/^pick:(.+)$/)", "$M[1].trim()"] },
    { name: "loose", anchor: "function $F($Q) { $$$ }", has: ["$Q.match(/^pick:(.+)$/)"] },
  ],
  roles: { F: "picker", Q: "query" },
};
const sig = compileSignature(spec);

function run(code: string) {
  const dir = mkdtempSync(join(tmpdir(), "searchlift-locate-"));
  const file = join(dir, "app.js");
  writeFileSync(file, code);
  const c = openContainer(file);
  try {
    return locate(c, [sig])[0]!;
  } finally {
    c.close();
  }
}

describe("locate", () => {
  it("reports the unique match with its position, variant and roles", () => {
    const code = "const x = 1;\nfunction pick(q) { let m = q.match(/^pick:(.+)$/); return m && m[1].trim(); }\npick('a');\n";
    const r = run(code);
    expect(r).toMatchObject({ status: "found", variant: "strict", line: 2, column: 1, roles: { picker: "pick", query: "q" } });
    expect(code.slice(r.start, r.end)).toMatch(/^function pick\(q\) \{.*\}$/);
  });

  it("says absent when nothing matches, and ambiguous for two live matches of one variant", () => {
    expect(run("function other(q) { return q.match(/^take:(.+)$/); }").status).toBe("absent");
    const two = "function a(q) { return q.match(/^pick:(.+)$/); }\nfunction b(q) { return q.match(/^pick:(.+)$/); }\na(1); b(2);\n";
    const r = run(two);
    expect(r.status).toBe("ambiguous");
    expect(r.candidates!.map((c) => c.roles.picker)).toEqual(["a", "b"]);
  });

  it("prefers the earlier variant, then referenced code, and says what it ignored", () => {
    const code =
      "function a(q) { return q.match(/^pick:(.+)$/); }\nfunction b(q) { let m = q.match(/^pick:(.+)$/); return m[1].trim(); }\nb(1);\n";
    expect(run(code)).toMatchObject({ status: "found", variant: "strict", roles: { picker: "b" } });
    const dead = "function a(q) { return q.match(/^pick:(.+)$/); }\nfunction b(q) { return q.match(/^pick:(.+)$/); }\nb(1);\n";
    const r = run(dead);
    expect(r).toMatchObject({ status: "found", roles: { picker: "b" } });
    expect(r.warnings!.join()).toMatch(/ignored loose look-alike/);
  });

  it("warns when a marker occurs more often than the signature allows", () => {
    const code =
      "function pick(q) { let m = q.match(/^pick:(.+)$/); return m[1].trim(); }\n" + "var r = [/^pick:(.+)$/, /^pick:(.+)$/];\npick(1);\n";
    const r = run(code);
    expect(r.status).toBe("found");
    expect(r.warnings).toEqual(["/^pick:(.+)$/ occurs 3 times (signature allows 2)"]);
  });
});

describe("locate by linked variants", () => {
  const scorer = compileSignature({
    id: "demo/scorer",
    summary: "scores and keeps the best",
    markers: [{ property: "score" }],
    variants: [
      { name: "known", anchor: "function $S($Q, $T, $N) { $$$ }", has: ["$R.sort(($A, $B) => $B.score - $A.score)", "$X.score += 10"] },
      {
        name: "anchored",
        linked: { signature: "demo/entry", role: "scorer" },
        anchor: "function $S($Q, $T, $N) { $$$ }",
        has: ["$_.score", "$_.sort($$$)", "$_.slice(0, $N)"],
      },
    ],
    roles: { S: "scorer", Q: "query" },
  });
  const entry = compileSignature({
    id: "demo/entry",
    summary: "the entry that runs the scorer",
    markers: [{ text: "max_results" }],
    variants: [
      {
        name: "known",
        anchor: "function $E($I) { $$$ }",
        has: ["let { query: $Q, max_results: $N = 5 } = $I", "return $S($Q, $I.tools, $N)"],
      },
      {
        name: "anchored",
        linked: { signature: "demo/scorer", role: "scorer" },
        anchor: "function $E($I) { $$$ }",
        has: ["let { $$$BEFORE, max_results: $N = 5, $$$AFTER } = $I", "$S($Q, $$$)"],
      },
    ],
    roles: { E: "entry", S: "scorer" },
  });
  const decoy =
    "function rankNotes(q, notes, n) { let r = notes.map((x) => ({ id: x.id, score: x.w })); return r.sort((a, b) => b.score - a.score).slice(0, n); }\n";
  const changedScorer =
    "function best(q, tools, n) { let r = tools.map((t) => ({ name: t.name, score: t.name === q ? 12 : 0 })); return r.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, n); }\n";
  const knownEntry = "function entry(input) { let { query: q, max_results: n = 5 } = input; return best(q, input.tools, n); }\n";
  const changedEntry =
    "function entry(input) { let { query: q, limit, max_results: n = 5 } = input; if (!q) return []; return best(q.trim(), input.tools, n); }\n";

  function runBoth(code: string) {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-locate-"));
    const file = join(dir, "app.js");
    writeFileSync(file, code);
    const c = openContainer(file);
    try {
      return locate(c, [scorer, entry]);
    } finally {
      c.close();
    }
  }

  it("finds a changed routine as the one its known partner calls, and says which parts are new", () => {
    const [s, e] = runBoth(decoy + changedScorer + knownEntry + "entry({});\n");
    expect(e).toMatchObject({ status: "found", variant: "known" });
    expect(s).toMatchObject({ status: "found", variant: "anchored", roles: { scorer: "best" } });
    expect(s!.changed).toEqual({ variant: "known", missing: ["$R.sort(($A, $B) => $B.score - $A.score)", "$X.score += 10"] });
  });

  it("pairs two changed routines by the identifier they share, and leaves the look-alike", () => {
    const [s, e] = runBoth(decoy + changedScorer + changedEntry + "entry({});\n");
    expect(s).toMatchObject({ status: "found", variant: "anchored", roles: { scorer: "best" } });
    expect(e).toMatchObject({ status: "found", variant: "anchored", roles: { entry: "entry", scorer: "best" } });
  });

  // The changed scorer as a method: of a class, static, or of an object literal.
  const body = changedScorer.slice("function best".length);
  const entryCalling = (callee: string) =>
    `function entry(input) { let { query: q, max_results: n = 5 } = input; return ${callee}(q, input.tools, n); }\n`;

  it("finds a changed scorer written as a method, through a one-line wrapper or a member call", () => {
    const wrapped = `class Search { best${body} }\nvar go = (q, t, n) => new Search().best(q, t, n);\n`;
    const code = decoy + wrapped + entryCalling("go") + "entry({});\n";
    const [s] = runBoth(code);
    expect(s).toMatchObject({
      status: "found",
      variant: "anchored",
      roles: { scorer: "best", query: "q" },
      method: { holder: "class", name: "Search", static: false },
    });
    expect(code.slice(s!.start, s!.end)).toBe(`best${body.trimEnd()}`);
    const viaFunction = `var holder = { best${body.trimEnd()} };\nfunction go(...a) { return holder.best(...a); }\n`;
    expect(runBoth(decoy + viaFunction + entryCalling("go") + "entry({});\n")[0]).toMatchObject({
      status: "found",
      roles: { scorer: "best" },
      method: { holder: "object", name: "holder", static: false },
    });
    const statik = `class Ranker { static best${body} }\n`;
    expect(runBoth(decoy + statik + entryCalling("Ranker.best") + "entry({});\n")[0]).toMatchObject({
      status: "found",
      variant: "anchored",
      roles: { scorer: "best" },
      method: { holder: "class", name: "Ranker", static: true },
    });
    // A plain function is no method.
    expect(runBoth(decoy + changedScorer + knownEntry + "entry({});\n")[0]!.method).toBeUndefined();
  });

  it("does not link a method through a wrapper that passes other arguments; the closest code may be a method", () => {
    const swapped = `class Search { best${body} }\nvar go = (q, t, n) => new Search().best(t, q, n);\n`;
    expect(runBoth(swapped + entryCalling("go") + "entry({});\n")[0]!.status).toBe("absent");
    // The look-alike as an object's method is the closest code, named where the method starts.
    const [s] = runBoth(`var notes = { ${decoy.slice("function ".length).trimEnd()} };\n` + entryCalling("go") + "entry({});\n");
    expect(s!.status).toBe("absent");
    expect(s!.closest).toMatchObject({ variant: "known", matched: 1, of: 2, line: 1, column: 15 });
  });

  it("says absent, with the closest code and what it lacks, when nothing links", () => {
    const [s] = runBoth(decoy + "rankNotes('a', [], 1);\n");
    expect(s!.status).toBe("absent");
    expect(s!.closest).toMatchObject({ variant: "known", matched: 1, of: 2, line: 1, column: 1, missing: ["$X.score += 10"] });
  });
});
