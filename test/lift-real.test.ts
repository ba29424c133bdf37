/**
 * The lift on real releases (cached from the npm registry, never committed): the readable
 * searchTools, scoreTools and toolSearch agree with the release's own minified code on the
 * 2,000-case corpus and give known answers (run in the sandbox, as every lifted module is), the
 * emitted code is pure, and two releases that share the routines give the same text.
 */
import { describe, expect, it } from "vitest";
import { openContainer } from "../src/index.js";
import { locateRoutines } from "../src/locate/locate.js";
import { loadSignatures } from "../src/locate/signature.js";
import { defaultCorpus } from "../src/routines/tool-search/corpus.js";
import { impurities } from "../src/lift/purity.js";
import { toolSearchCode } from "../src/routines/tool-search/tool-search-code.js";
import { verifyAgreement } from "../src/verify/verify.js";
import { sandboxScript } from "../src/diff/behaviour.js";
import { runCalls, type ContractCall } from "../src/diff/witness-run.js";
import { npmPackMember } from "./helpers/cache.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const signatures = loadSignatures();
const scorerSignature = signatures.find((s) => s.id === "tool-search/scorer")!;
const callSignature = signatures.find((s) => s.id === "tool-search/call")!;
const corpus = defaultCorpus(1, 2000);

function lift(spec: string, member: string) {
  const c = openContainer(npmPackMember(spec, member));
  try {
    const [scorer, call] = locateRoutines(c, [scorerSignature, callSignature]);
    return toolSearchCode(c, { scorer: scorer!, scorerSignature, call: call!, callSignature });
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
  // call() refreshes tools and waits for MCP servers: the waits are cut, the refresh sees no new tools.
  ["@anthropic-ai/claude-code-linux-x64@2.1.200", "package/claude"],
  // Code-split; the scorer takes a description cache that call() gets from its tool state by class,
  // and call() returns the failed MCP servers beside the matches behind a flag.
  ["@anthropic-ai/claude-code-linux-x64@2.1.250", "package/claude"],
  // The scorer takes six arguments (query, deferred, all, a list of all by name, max, cache) and yields
  // cooperatively; call() reads its context from create() and computes the deferred tools locally.
  ["@anthropic-ai/claude-code-linux-x64@2.1.300", "package/claude"],
  // call() asks the session which tools are held inline; 2.1.325 also measures the context room.
  ["@anthropic-ai/claude-code-linux-x64@2.1.317", "package/claude"],
  ["@anthropic-ai/claude-code-linux-x64@2.1.325", "package/claude"],
  // A per-session cache class, a call() that reads the session, the context room, hooks and MCP
  // redials: each cut at a port of the call signature, the rest folded away with the state it needs.
  ["@anthropic-ai/claude-code-linux-x64@2.1.332", "package/claude"],
  // Map reads go through a helper that throws on a missing key, after Error.captureStackTrace (folded away).
  ["@anthropic-ai/claude-code-linux-x64@2.1.334", "package/claude"],
];

/** A contract call on `deferred`, nothing loaded. */
const ask = (fn: ContractCall["fn"], query: string, deferred: ContractCall["deferred"]): ContractCall => ({
  fn,
  query,
  deferred,
  loaded: [],
});

/** What the lifted module answers to each call, run in the sandbox as `diff` runs modules; an error as its message. */
async function answers(spec: string, module: string, calls: ContractCall[]): Promise<unknown[]> {
  const results = await runCalls({ script: sandboxScript(module, spec), label: spec }, calls);
  return results.map((r) => (r.ok ? r.value : `error: ${r.error}`));
}

const twins = [
  { name: "mcp__x__dup", description: "Nothing to see" },
  { name: "mcp__x__dup", description: "Nothing to see", searchHint: "alpha channel" },
];

/** What every 2.1.x release does, whatever else it changed: `select:` picks the named tools, in order. */
const truthTools = [
  { name: "mcp__github__create_issue", description: "Create an issue in a GitHub repository" },
  { name: "mcp__slack__send_message", description: "Send a message to a Slack channel" },
  { name: "NotebookEdit", description: "Edit a cell of a Jupyter notebook" },
];

describe.skipIf(skip)("lift on real releases", () => {
  for (const [spec, member] of releases) {
    it(`${spec}: searchTools, scoreTools and toolSearch agree with the release on ${corpus.length} cases`, async () => {
      const code = lift(spec, member);
      expect(code.toolSearch).toBe(true);
      const module = code.readable + "export { searchTools, scoreTools, toolSearch, defaults };\n";
      expect(impurities(module)).toEqual([]);
      // Telemetry and logging are cut, not carried along.
      expect(code.dropped.length).toBeGreaterThan(0);
      const v = await verifyAgreement(code.original, module, corpus);
      expect(v.firstDisagreement).toBeUndefined();
      expect(v.agreed).toBe(corpus.length);
      // Agreement must mean something: nearly every call returns a value, not an error on both sides.
      expect(v.bothErrored).toBeLessThan(v.calls / 20);
      // And both sides must be right, not only alike (they share every cut): known answers, in the sandbox.
      if (!spec.includes("@2.0.")) {
        const [one, list, slack, message, notebook, twinScores] = await answers(spec, module, [
          ask("toolSearch", "select:NotebookEdit", truthTools),
          ask("toolSearch", "select:NotebookEdit,mcp__slack__send_message", truthTools),
          ask("searchTools", "slack", truthTools),
          // A plain keyword query goes through call() to the same scorer.
          ask("toolSearch", "slack message", truthTools),
          ask("toolSearch", "jupyter notebook", truthTools),
          ask("scoreTools", "+alpha", twins),
        ]);
        expect(one).toEqual(["NotebookEdit"]);
        // 2.1.19 selects one name (the single-select variant); lists come after it.
        if (!spec.endsWith("@2.1.19")) expect(list).toEqual(["NotebookEdit", "mcp__slack__send_message"]);
        expect(slack).toEqual(["mcp__slack__send_message"]);
        expect(message).toEqual(["mcp__slack__send_message"]);
        expect(notebook).toEqual(["NotebookEdit"]);
        // Two deferred tools share a name and only the second has the +required term, in its searchHint
        // (descriptions are looked up by name): the score is the second's, matched by position (2.1.300
        // and later drop the first before scoring).
        // searchHint scores from 2.1.64 on (2.1.19 has +required terms but reads no hint).
        if (code.readable.includes('startsWith("+")') && !spec.endsWith("@2.1.19"))
          expect((twinScores as Array<{ score: number }>).map((r) => r.score > 0)).toEqual([false, true]);
      }
    });
  }

  it("the three platform builds of 2.1.332 (other chunks, other minified names) give the same text", () => {
    const linux = lift("@anthropic-ai/claude-code-linux-x64@2.1.332", "package/claude").readable;
    expect(lift("@anthropic-ai/claude-code-darwin-arm64@2.1.332", "package/claude").readable).toBe(linux);
    expect(lift("@anthropic-ai/claude-code-win32-x64@2.1.332", "package/claude.exe").readable).toBe(linux);
  });

  it("linux-x64 and linux-arm64 2.1.334 give the same text", () => {
    const x64 = lift("@anthropic-ai/claude-code-linux-x64@2.1.334", "package/claude").readable;
    expect(lift("@anthropic-ai/claude-code-linux-arm64@2.1.334", "package/claude").readable).toBe(x64);
  });

  it("2.1.111 and 2.1.112 share the routines: the lifted code is the same text", () => {
    const a = lift("@anthropic-ai/claude-code@2.1.111", "package/cli.js").readable;
    const b = lift("@anthropic-ai/claude-code@2.1.112", "package/cli.js").readable;
    expect(a).toBe(b);
    expect(a).toContain("searchToolsByKeywords");
  });
});
