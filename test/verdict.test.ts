/**
 * An honest verdict: verification says how many cases returned normally on both sides, how many threw on
 * both and how many differed, and "verified" only when none differed and at least 3/4 returned normally on
 * both sides. A routine that throws on half the corpus the same way on both sides is inconclusive, not verified.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { verificationRefused } from "../src/lift/lift.js";
import { isAcceptedAgreement, recordAgreement, recordedAgreement, returnedEnough } from "../src/verify/shared-verification.js";
import type { VerifyResult } from "../src/verify/verify.js";
import { behaviourVerdict, noDifferenceFound, type Behaviour, type ChangedCodeRun } from "../src/diff/behaviour.js";
import type { ChangedPoint } from "../src/diff/coverage.js";
import { changelogMarkdown } from "../src/history/changelog.js";
import type { Timeline } from "../src/track/timeline.js";
import { runCli } from "./helpers/cli.js";

const ROOT = join(import.meta.dirname, "..");
const RELEASES = join(ROOT, "samples", "releases");

const run = (...args: string[]) => runCli(args);

/** A verification that ran every case, with `threw` cases throwing on both sides and `differed` differing. */
function result(cases: number, threw: number, differed = 0): VerifyResult {
  return {
    cases,
    agreed: cases - differed,
    bothReturned: cases - threw - differed,
    bothThrew: threw,
    differed,
    calls: cases * 3,
    bothErrored: threw,
    originalFailed: threw,
    ...(threw > 0 ? { firstOriginalError: "TypeError: x is undefined" } : {}),
    limitHits: { original: 0, emitted: 0 },
    disagreements: { searchTools: differed, scoreTools: 0, toolSearch: 0 },
    ...(differed > 0
      ? {
          firstDisagreement: {
            case: { query: "q", deferred: [] },
            fn: "searchTools" as const,
            original: { ok: true as const, value: ["A"] },
            emitted: { ok: true as const, value: [] },
            index: 0,
            unshrunk: {
              case: { query: "q", deferred: [] },
              fn: "searchTools" as const,
              original: { ok: true as const, value: ["A"] },
              emitted: { ok: true as const, value: [] },
            },
            shrinkSteps: 0,
            shrinkRounds: 0,
          },
        }
      : {}),
    durationMs: { run: 1, shrink: 0 },
  };
}

describe("the verdict on a verification's counts", () => {
  it("verified when every case agrees and at least 3/4 returned normally on both sides", () => {
    expect(verificationRefused(result(2000, 0))).toBeNull();
    expect(verificationRefused(result(2000, 35))).toBeNull(); // a real release: 1965 returned, 35 threw on both
    expect(verificationRefused(result(2000, 500))).toBeNull(); // exactly 3/4
    expect(returnedEnough(1500, 2000)).toBe(true);
    expect(returnedEnough(1499, 2000)).toBe(false);
    expect(returnedEnough(0, 0)).toBe(false);
  });

  it("inconclusive (16), with the counts, when a quarter or more of the cases only agree by both throwing", () => {
    for (const threw of [501, 960, 1000, 1999]) {
      const r = verificationRefused(result(2000, threw));
      expect(r?.exitCode, String(threw)).toBe(ExitCode.inconclusive);
      expect(r?.message).toBe(
        `verification inconclusive: the original code failed on ${threw}/2000 cases (first: TypeError: x is undefined); ` +
          `only ${2000 - threw}/2000 cases returned normally on both sides (${2000 - threw} returned normally on both sides, ${threw} threw on both), ` +
          `and "verified" needs at least 3/4`,
      );
    }
  });

  it("failed (10), with the counts, when any case differs, whatever the share", () => {
    const r = verificationRefused(result(2000, 10, 2));
    expect(r?.exitCode).toBe(ExitCode.disagreement);
    expect(r?.message).toMatch(
      /^verification failed: 1998\/2000 cases agree \(1988 returned normally on both sides, 10 threw on both, 2 differed\); smallest failing case for searchTools: /,
    );
  });

  it("a recorded verification carries its counts; one without them, or below the share, is not reused", () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-verdict-records-"));
    const good = { cases: 2000, agreed: 2000, bothReturned: 1965, bothThrew: 35 };
    recordAgreement(dir, "a", good);
    expect(recordedAgreement(dir, "a")).toEqual(good);
    recordAgreement(dir, "b", { cases: 2000, agreed: 2000, bothReturned: 1040, bothThrew: 960 });
    expect(readdirSync(dir)).toEqual(["a.json"]);
    // As an earlier searchlift wrote them: no counts.
    writeFileSync(join(dir, "c.json"), JSON.stringify({ key: "c", cases: 2000, agreed: 2000 }));
    expect(recordedAgreement(dir, "c")).toBeNull();
    // Counts that do not add up.
    writeFileSync(join(dir, "d.json"), JSON.stringify({ key: "d", cases: 2000, agreed: 2000, bothReturned: 2000, bothThrew: 35 }));
    expect(recordedAgreement(dir, "d")).toBeNull();
    expect(isAcceptedAgreement({ cases: 2000, agreed: 2000 })).toBe(false);
  });
});

describe("lift prints the counts, and refuses what only agrees by throwing", () => {
  const work = mkdtempSync(join(tmpdir(), "searchlift-verdict-"));

  it("a sample whose helper throws on about half the cases, the same on both sides: inconclusive (exit 16), not verified", () => {
    const sample = readFileSync(join(RELEASES, "0.1.0"), "utf8");
    const helper = "async function w(t,r){"; // the helper the scorer awaits for each tool's description
    expect(sample).toContain(helper);
    const file = join(work, "0.1.0");
    writeFileSync(file, sample.replace(helper, `${helper}if(r.length%2===1)throw new Error("half");`));
    const r = run("lift", file, "--out", join(work, "out-half"), "--cases", "300");
    expect(r.code, r.stderr).toBe(ExitCode.inconclusive);
    const line = r.stderr
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("note: --cases"));
    expect(line).toHaveLength(1);
    const m =
      /only (\d+)\/300 cases returned normally on both sides \(\1 returned normally on both sides, (\d+) threw on both\), and "verified" needs at least 3\/4/.exec(
        line[0]!,
      );
    expect(m, line[0]).not.toBeNull();
    const [returned, threw] = [Number(m![1]), Number(m![2])];
    expect(returned + threw).toBe(300);
    // The reviewer's case: fewer than half fail, which the majority rule called verified.
    expect(threw).toBeGreaterThan(75);
    expect(threw).toBeLessThan(150);
    expect(line[0]).toContain("the original code failed on");
    expect(readdirSync(work)).not.toContain("out-half");
  });

  it("a verified lift shows the counts in its line, the module's Verified line and its provenance", () => {
    const out = join(work, "out-ok");
    const r = run("lift", join(RELEASES, "0.5.0"), "--out", out, "--cases", "300");
    expect(r.code, r.stderr).toBe(0);
    const m = /verified: 300\/300 cases agree \((\d+) returned normally on both sides, (\d+) threw on both\)\)$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    const [returned, threw] = [Number(m![1]), Number(m![2])];
    expect(returned + threw).toBe(300);
    expect(threw).toBeGreaterThan(0); // 0.5.0 throws on tools without a description, as the release does
    const text = readFileSync(join(out, "searchlift-sample", "0.5.0", "npm", "tool-search.mjs"), "utf8");
    expect(text).toContain(
      `// Verified: agrees with the original on 300/300 corpus cases (${returned} returned normally on both sides, ${threw} threw on both).\n`,
    );
    expect(text).toMatch(
      new RegExp(`"verified": \\{\\s*"cases": 300,\\s*"agreed": 300,\\s*"bothReturned": ${returned},\\s*"bothThrew": ${threw}\\s*\\}`),
    );
    const json = run("lift", join(RELEASES, "0.5.0"), "--out", join(work, "out-json"), "--cases", "300", "--json");
    expect(JSON.parse(json.stdout).results[0].verified).toEqual({ cases: 300, agreed: 300, bothReturned: returned, bothThrew: threw });
  });

  it("track: the timeline shows the counts, and a release cached with a verification without counts is lifted again", () => {
    const cache = mkdtempSync(join(tmpdir(), "searchlift-verdict-cache-"));
    const first = run("track", join(RELEASES, "0.3.0"), "--out", join(work, "t1"), "--cache", cache, "--json");
    expect(first.code, first.stderr).toBe(0);
    const want = { cases: 2000, agreed: 2000, bothReturned: 2000, bothThrew: 0 };
    expect(JSON.parse(first.stdout).releases[0].verified).toEqual(want);
    expect(readFileSync(join(work, "t1", "timeline.md"), "utf8")).toContain(
      "| 2000/2000 (2000 returned normally on both sides, 0 threw on both) |",
    );
    // The cached release as an earlier searchlift wrote it: a verification without its counts.
    const [entry] = readdirSync(cache).filter((d) => d !== "verifications");
    const file = join(cache, entry!, "release.json");
    const cached = JSON.parse(readFileSync(file, "utf8")) as { verified: object };
    cached.verified = { cases: 2000, agreed: 2000 };
    writeFileSync(file, JSON.stringify(cached));
    const again = run("track", join(RELEASES, "0.3.0"), "--out", join(work, "t2"), "--cache", cache, "--json");
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).releases[0].verified).toEqual(want);
  });
});

describe("diff's verdict where no witness was found: behaviour changed, a refactor, or unknown", () => {
  const point = (line: number, code: string, extra: Partial<ChangedPoint> = {}): ChangedPoint => ({
    line,
    kind: "statement",
    code,
    ...extra,
  });
  const cannot = "reachable only when `this.#useExtra` is true — the tool search never makes Cache with its constructor option useExtra";
  const behaviour = (before: ChangedCodeRun, after: ChangedCodeRun): Behaviour => ({
    searched: 3600,
    seconds: 1.5,
    coverage: { before, after },
    changed: [],
    sentences: [],
  });

  it("a refactor when every reachable point was seen, naming the points that cannot run and why", () => {
    const b = behaviour(
      { reached: 4, of: 4, unreached: [], unreachable: [] },
      {
        reached: 7,
        of: 7,
        unreached: [],
        unreachable: [point(966, "x", { unreachable: cannot }), point(967, "y", { unreachable: cannot })],
      },
    );
    expect(behaviourVerdict(b)).toBe("refactor");
    expect(noDifferenceFound(b)).toBe(
      "A refactor: no behaviour difference found in 3600 cases (1.5 s); every changed point the tool search can reach was seen: " +
        "each statement and branch ran, each condition went both ways (4 points before, 7 after); " +
        `2 more points cannot run in the tool search: 2 ${cannot}`,
    );
  });

  it("unknown while a reachable point was never seen: k of the n reachable points, named, the unreachable apart", () => {
    const b = behaviour(
      { reached: 3, of: 4, unreached: [point(10, "score += 3;")], unreachable: [] },
      { reached: 5, of: 5, unreached: [], unreachable: [point(20, "z", { unreachable: cannot })] },
    );
    expect(behaviourVerdict(b)).toBe("unknown");
    expect(noDifferenceFound(b)).toBe(
      "Unknown: no behaviour difference found in 3600 cases (1.5 s); 1 of 9 reachable points of the changed code " +
        "(statements, branches, condition outcomes) were never seen (line 10 before: `score += 3;`); " +
        `1 more point cannot run in the tool search: 1 ${cannot}`,
    );
  });

  it("a timeline written before points were told apart (no `unreachable`) reads as it did: every point counts", () => {
    const b = behaviour({ reached: 1, of: 2, unreached: [point(3, "a")] }, { reached: 2, of: 2, unreached: [] });
    expect(behaviourVerdict(b)).toBe("unknown");
    expect(noDifferenceFound(b)).toMatch(/^Unknown: .*; 1 of 4 reachable points .*\(line 3 before: `a`\)$/);
  });

  it("the changelog says the same verdict without the release's code: the reasons by the fact that stops them", () => {
    const change = (b: Behaviour) => ({ from: "1.0.0", to: "1.0.1", behaviour: b, semantics: [], code: null });
    const release = (version: string) => ({ version, platform: "npm", routineHash: "h", verified: { cases: 2000, agreed: 2000 } });
    const refactor = behaviour(
      { reached: 4, of: 4, unreached: [], unreachable: [] },
      { reached: 7, of: 7, unreached: [], unreachable: [point(966, "secretCode()", { unreachable: cannot })] },
    );
    const unknown = behaviour(
      { reached: 3, of: 4, unreached: [point(10, "secretCode()")], unreachable: [] },
      { reached: 7, of: 7, unreached: [], unreachable: [] },
    );
    const md = (b: Behaviour) =>
      changelogMarkdown(
        {
          releases: [release("1.0.0"), release("1.0.1")],
          groups: [
            { first: "1.0.0", last: "1.0.0", releases: ["1.0.0"], routineHash: "a" },
            { first: "1.0.1", last: "1.0.1", releases: ["1.0.1"], routineHash: "b" },
          ],
          changes: [change(b)],
        } as unknown as Timeline,
        { skipped: [], platform: null },
      );
    expect(md(refactor)).toContain(
      "A refactor: no behaviour difference found in 3600 cases; every changed point the tool search can reach was seen: each statement and branch ran, " +
        "each condition went both ways; 1 more point cannot run in the tool search: 1 because the tool search never makes Cache with its constructor option useExtra.",
    );
    expect(md(unknown)).toContain(
      "Unknown: no behaviour difference found in 3600 cases; 1 of 11 reachable points of the changed code (statements, branches, condition outcomes) were never seen.",
    );
    for (const b of [refactor, unknown]) expect(md(b)).not.toContain("secretCode");
  });
});

describe("diff's verdict where none of the changed code can run", () => {
  it("says so once, with why, and is a refactor", () => {
    const cannot = "reachable only when `refreshTools?.()` is set — the tool search gives call() `refreshTools` as undefined";
    const p: ChangedPoint = {
      line: 5,
      kind: "condition",
      code: "refreshTools?.()",
      why: "never set (always null or undefined)",
      unreachable: cannot,
    };
    const b: Behaviour = {
      searched: 3600,
      seconds: 2,
      coverage: {
        before: { reached: 0, of: 0, unreached: [], unreachable: [] },
        after: { reached: 0, of: 0, unreached: [], unreachable: [p] },
      },
      changed: [],
      sentences: [],
    };
    expect(behaviourVerdict(b)).toBe("refactor");
    expect(noDifferenceFound(b)).toBe(
      `A refactor: no behaviour difference found in 3600 cases (2 s); none of the changed code can run in the tool search (1 point): 1 ${cannot}`,
    );
  });
});
