/**
 * The probes' scoring table ("adds: …" rows: what each kind of match adds) against two independent sources:
 * - the clean-room reference (test/reference/), generation by generation: the rows it gives are the weights read
 *   in the releases' own code (2.0.70: name equals +10, contains +5, description contains +2; 2.1.10: server
 *   +12 / +6, action word +8 / +4, description word +2; 2.1.14 on: name part +12 / +6 for MCP, +10 / +5 for a
 *   built-in; 2.1.64 on: searchHint word +4; 2.1.113 on: whole server or tool name +12 / +4, +10 / +3 for a
 *   built-in), so the probes isolate each rule wherever the rules stand;
 * - lifted real releases, run in the sandbox (skipped under SEARCHLIFT_SKIP_REAL=1): their rows are the
 *   reference's for their version.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sandboxScript } from "../src/diff/behaviour.js";
import { runCalls } from "../src/diff/witness-run.js";
import { answerOf } from "../src/diff/witness-search.js";
import type { Probe } from "../src/routines/tool-search/probe-calls.js";
import { probeRows, toolSearchProbes } from "../src/routines/tool-search/probes.js";
import { rulesFor } from "./reference/generations.js";
import { liftedModule, lifterKey } from "./reference/lifted-modules.js";
import { ReferenceThrow, scoreTools, searchTools, toolSearch } from "./reference/tool-search-reference.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";

/** The rule rows and the yes/no rows about names; the caps' long inputs are left out (the reference has them
 *  as numbers, the acceptance test checks them). */
const probes: Probe[] = toolSearchProbes([]).filter(
  (p) => p.feature.startsWith("adds: ") || p.feature.startsWith("name parts ") || p.feature.startsWith("exact name"),
);

function referenceRows(version: string): Record<string, string> {
  const rules = rulesFor(version);
  const answers = probes
    .flatMap((p) => p.calls)
    .map((c) => {
      const fn = { toolSearch, searchTools, scoreTools }[c.fn];
      try {
        return fn(rules, c.query, c.deferred, { loaded: c.loaded });
      } catch (e) {
        if (e instanceof ReferenceThrow) return { error: e.message };
        throw e;
      }
    });
  const { rows } = probeRows(probes, answers, answers);
  return Object.fromEntries(rows.map((r) => [r.feature, r.after]));
}

const NAME = "adds: name part, exact / partial";
const SERVER = "adds: MCP server name part, exact / partial";
const WHOLE = "adds: whole server or tool name, exact / partial";
const HINT = "adds: searchHint word, whole / part";
const DESCRIPTION = "adds: description word, whole / part";

describe("the scoring table, measured on the reference", () => {
  it("2.0.70: a name that contains the term +5, equals it +10; a description that contains it +2", () => {
    expect(referenceRows("2.0.70")).toMatchObject({
      [NAME]: "0 / 0 (built-in 0 / 0)",
      [SERVER]: "0 / 0",
      // The MCP name (mcp alpha bravo_charlie) holds both terms; the built-in's (bravocharlie) equals the first.
      [WHOLE]: "5 / 5 (built-in 10 / 5)",
      [HINT]: "0 / 0",
      [DESCRIPTION]: "2 / 2",
    });
  });

  it("2.1.10: the server +12 / +6, an action word +8 / +4, a whole description word +2", () => {
    expect(referenceRows("2.1.10")).toMatchObject({
      // A built-in's whole name is its "server": a part of it adds nothing beyond the partial match.
      [NAME]: "8 / 4 (built-in 0 / 0)",
      [SERVER]: "12 / 6",
      [WHOLE]: "0 / 0 (built-in 12 / 6)",
      [HINT]: "0 / 0",
      [DESCRIPTION]: "2 / 0",
    });
  });

  it("2.1.14 to 2.1.112: name parts +12 / +6 (built-in +10 / +5); from 2.1.64 a searchHint word +4", () => {
    for (const v of ["2.1.14", "2.1.64", "2.1.112"])
      expect(referenceRows(v), v).toMatchObject({
        [NAME]: "12 / 6 (built-in 10 / 5)",
        [SERVER]: "12 / 6",
        [WHOLE]: "0 / 0 (built-in 0 / 0)",
        [HINT]: v === "2.1.14" ? "0 / 0" : "4 / 0",
        [DESCRIPTION]: "2 / 0",
      });
    expect(referenceRows("2.1.14")["name parts from mcpInfo"]).toBe("no");
    expect(referenceRows("2.1.112")["name parts from mcpInfo"]).toBe("yes");
    expect(referenceRows("2.1.64")["name parts split at dots"]).toBe("no");
    expect(referenceRows("2.1.112")["name parts split at dots"]).toBe("yes");
  });

  it("2.1.113 on: a whole server or tool name +12 / +4 (built-in +10 / +3) on top of the parts", () => {
    for (const v of ["2.1.113", "2.1.332"])
      expect(referenceRows(v), v).toMatchObject({
        [NAME]: "12 / 6 (built-in 10 / 5)",
        [SERVER]: "12 / 6",
        [WHOLE]: "12 / 4 (built-in 10 / 3)",
        [HINT]: "4 / 0",
        [DESCRIPTION]: "2 / 0",
      });
    expect(referenceRows("2.1.325")["exact name: the same case first"]).toBe("no");
    expect(referenceRows("2.1.326")["exact name: the same case first"]).toBe("yes");
  });

  it("a changed rule is said with its numbers and one short witness", () => {
    const answersOf = (version: string) => {
      const rules = rulesFor(version);
      return probes
        .flatMap((p) => p.calls)
        .map((c) => ({ toolSearch, searchTools, scoreTools })[c.fn](rules, c.query, c.deferred, { loaded: c.loaded }));
    };
    const { sentences } = probeRows(probes, answersOf("2.1.112"), answersOf("2.1.113"));
    const whole = sentences.find((s) => s.startsWith("an exact whole server or tool name"));
    expect(whole).toBe(
      'an exact whole server or tool name now adds 12 (10 for a built-in), a partial one 4 (3), on top of the name parts: scoreTools `"bravo_charlie"` on mcp__alpha__bravo_charlie scores 0 → 12',
    );
    // Every rule change of the history in at most 200 characters.
    const history = ["2.0.76", "2.1.10", "2.1.14", "2.1.19", "2.1.64", "2.1.101", "2.1.113", "2.1.326"];
    for (let k = 1; k < history.length; k++)
      for (const s of probeRows(probes, answersOf(history[k - 1]!), answersOf(history[k]!)).sentences)
        expect(s.length, s).toBeLessThanOrEqual(200);
    expect(probeRows(probes, answersOf("2.1.19"), answersOf("2.1.64")).sentences).toContain(
      'a whole searchHint word now adds 4 (was 0): scoreTools `"romeo"` on mcp__kilo__lima (searchHint "quebec romeo") scores 0 → 4',
    );
    // 2.1.100 → 2.1.101: name parts come from mcpInfo, and dots split them.
    expect(probeRows(probes, answersOf("2.1.100"), answersOf("2.1.101")).sentences).toEqual([
      'the keyword search now also reads name parts from mcpInfo\'s server and tool names: `"kilo"` → mcp__alpha__bravo 12',
      'the keyword search now also splits name parts at dots as at underscores: `"charlie"` → mcp__alpha__bravo.charlie 12',
    ]);
  });
});

/** Releases of each table above, lifted (cached by the lifter's sources, as the acceptance test does). */
const RELEASES = [
  { version: "2.0.70", spec: "@anthropic-ai/claude-code@2.0.70", member: "package/cli.js" },
  { version: "2.1.10", spec: "@anthropic-ai/claude-code@2.1.10", member: "package/cli.js" },
  { version: "2.1.112", spec: "@anthropic-ai/claude-code@2.1.112", member: "package/cli.js" },
  { version: "2.1.124", spec: "@anthropic-ai/claude-code-linux-x64@2.1.124", member: "package/claude" },
  { version: "2.1.332", spec: "@anthropic-ai/claude-code-linux-x64@2.1.332", member: "package/claude" },
];

describe.skipIf(skip)("the scoring table of lifted real releases", () => {
  const key = skip ? "" : lifterKey();
  for (const r of RELEASES)
    it(`${r.spec}: every measured row is the reference's`, async () => {
      const path = await liftedModule(r.spec, r.member, key);
      const side = { script: sandboxScript(readFileSync(path, "utf8"), path), label: path };
      const answers = (
        await runCalls(
          side,
          probes.flatMap((p) => p.calls),
        )
      ).map(answerOf);
      const { rows } = probeRows(probes, answers, answers);
      expect(Object.fromEntries(rows.map((x) => [x.feature, x.after]))).toEqual(referenceRows(r.version));
    }, 600_000);
});
