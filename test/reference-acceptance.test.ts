/**
 * Acceptance against an independent reference: real releases across the whole history, lifted by the
 * pipeline, answer random calls exactly as the clean-room reference (test/reference/) says their
 * generation does — ranked names, scores, and a throw where the release throws.
 *
 * Lifted modules are run in the sandbox only (sandboxScript + runCalls, as `diff` does), never imported here.
 * Lifts are cached outside the checkout under a key made of the lifter's own sources, so a change to the
 * lift relifts and a rerun costs only the sandbox runs. Skipped under SEARCHLIFT_SKIP_REAL=1.
 *
 * Generations 10–11 (2.1.317 on) add special lookup rules; the reference models those the contract can
 * reach (device tools loaded together, bash/shell pulling them in, Eval over REPL's alias, keyword name
 * lookups that throw). Not modelled, and never in the inputs: generation 11's boilerplate paragraph.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sandboxScript } from "../src/diff/behaviour.js";
import { runCalls, type ContractCall } from "../src/diff/witness-run.js";
import type { CallResult } from "../src/verify/sandbox.js";
import { jsonEqual } from "../src/verify/verify.js";
import { rulesFor, type Rules } from "./reference/generations.js";
import { liftedModule, lifterKey } from "./reference/lifted-modules.js";
import { randomCalls, type Call } from "./reference/random-cases.js";
import { ReferenceThrow, scoreTools, searchTools, toolSearch } from "./reference/tool-search-reference.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const CASES = Number(process.env.SEARCHLIFT_REFERENCE_CASES ?? 300);
const SEED = Number(process.env.SEARCHLIFT_REFERENCE_SEED ?? 0x7e5e7);

/** One or two releases per generation, the boundaries the table names, and a second platform.
 *  2.1.16 is the first of generation 4, 2.1.59 the first with aliases, 2.1.67 the first of the releases that
 *  went back to generation 5 after 2.1.64, 2.1.322 the last and 2.1.323 the first with bash/shell pulling
 *  device tools and keyword name lookups (test/reference/generations.ts). */
const RELEASES: Array<{ version: string; spec: string; member: string }> = [
  ...["2.0.70", "2.1.10", "2.1.14", "2.1.16", "2.1.19", "2.1.59", "2.1.64", "2.1.67", "2.1.112"].map((v) => ({
    version: v,
    spec: `@anthropic-ai/claude-code@${v}`,
    member: "package/cli.js",
  })),
  // 2.1.129: call() of 2.1.128–2.1.140 chooses by a host check in a conditional expression (the neutral client: off).
  ...["2.1.124", "2.1.129", "2.1.250", "2.1.271", "2.1.295", "2.1.300", "2.1.317", "2.1.322", "2.1.323", "2.1.332", "2.1.334"].map((v) => ({
    version: v,
    spec: `@anthropic-ai/claude-code-linux-x64@${v}`,
    member: "package/claude",
  })),
  { version: "2.1.332", spec: "@anthropic-ai/claude-code-win32-x64@2.1.332", member: "package/claude.exe" },
];

/** The reference's answer in the sandbox's shape; anything but a ReferenceThrow is a bug of the reference. */
function referenceAnswer(rules: Rules, c: Call): CallResult {
  const options = { loaded: c.loaded, ...(c.maxResults !== undefined ? { maxResults: c.maxResults } : {}) };
  const fn = { toolSearch, searchTools, scoreTools }[c.fn];
  try {
    return { ok: true, value: fn(rules, c.query, c.deferred, options) };
  } catch (e) {
    if (e instanceof ReferenceThrow) return { ok: false, error: e.message };
    throw e;
  }
}

function agree(lifted: CallResult, reference: CallResult): boolean {
  if (!lifted.ok || !reference.ok) return !lifted.ok && !reference.ok;
  return jsonEqual(lifted.value, reference.value);
}

/** A disagreement, short enough to read: the call (long strings cut) and both answers. */
function describeCall(c: Call, lifted: CallResult, reference: CallResult): string {
  const cut = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…(${s.length})` : s);
  return JSON.stringify({ ...c, query: cut(c.query), lifted, reference }, (_, v) => (typeof v === "string" ? cut(v) : v));
}

/** Each call's answer under `rules`, as JSON ("throw" for a throw): what a release of those rules returns. */
function answers(rules: Rules, calls: Call[]): string[] {
  return calls.map((c) => {
    const a = referenceAnswer(rules, c);
    return a.ok ? JSON.stringify(a.value) : "throw";
  });
}

const callsFor = (rules: Rules) => randomCalls(SEED ^ rules.generation, CASES);

describe("the random calls can tell neighbouring releases apart", () => {
  // Agreement means little if the calls never touch the rule that changed: for each two neighbours in
  // RELEASES whose rules differ, each one's calls must hold a case on which the two answer differently.
  const ruleText = (r: Rules) => JSON.stringify({ ...r, version: "" });
  for (let i = 1; i < RELEASES.length; i++) {
    const [a, b] = [rulesFor(RELEASES[i - 1]!.version), rulesFor(RELEASES[i]!.version)];
    if (ruleText(a) === ruleText(b)) continue;
    it(`${a.version} and ${b.version}`, () => {
      for (const calls of [callsFor(a), callsFor(b)]) {
        const [x, y] = [answers(a, calls), answers(b, calls)];
        expect(x.some((v, j) => v !== y[j])).toBe(true);
      }
    });
  }
});

describe.skipIf(skip)("lifted modules against the independent reference", () => {
  const key = skip ? "" : lifterKey();
  for (const r of RELEASES) {
    const rules = rulesFor(r.version);
    it(`${r.spec} (generation ${rules.generation}): ${CASES} random calls answer as the reference`, async () => {
      const path = await liftedModule(r.spec, r.member, key);
      const side = { script: sandboxScript(readFileSync(path, "utf8"), path), label: path };
      const calls = callsFor(rules);
      // Malformed tools (an mcpInfo missing a half) are outside the contract's Tool type on purpose.
      const lifted = await runCalls(side, calls as ContractCall[]);
      const reference = calls.map((c) => referenceAnswer(rules, c));
      const disagreements = calls.flatMap((c, i) => (agree(lifted[i]!, reference[i]!) ? [] : [describeCall(c, lifted[i]!, reference[i]!)]));
      expect(disagreements.slice(0, 3), `${disagreements.length} of ${calls.length} disagree`).toEqual([]);
      // The cases must exercise both outcomes: calls that find tools (a name, or a positive score), and throws.
      const found = (x: CallResult) =>
        x.ok && (x.value as Array<string | { score: number }>).some((v) => typeof v === "string" || v.score > 0);
      expect(reference.filter((x) => !x.ok).length).toBeGreaterThan(0);
      expect(reference.filter(found).length).toBeGreaterThan(calls.length / 5);
    }, 900_000);
  }
});
