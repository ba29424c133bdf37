/**
 * What the changed lines test names against and where they read properties (code-tokens.ts), and the witness
 * candidates built from them (witness-candidates.ts): a tool named to pass such a test comes among the first
 * calls, whatever way the text reaches the test (a literal, a constant, a template of constants).
 */
import { describe, expect, it } from "vitest";
import { codeTokens } from "./code-tokens.js";
import { witnessCandidates } from "../routines/tool-search/witness-candidates.js";

/** A module text as lift writes one: code, then the provenance mark codeTokens cuts at. */
const lifted = (code: string) => `${code}\n// Provenance\nconst provenance = {};\n`;

const BEFORE = lifted(`let prefixText = "mcp__";
let serverText = "remote-devices";
function isDevice(name) {
  return false;
}
function parseName(entry) {
  return entry.mcpInfo.serverName;
}`);
const AFTER = lifted(`let prefixText = "mcp__";
let serverText = "remote-devices";
function isDevice(name) {
  return name.startsWith(\`\${prefixText}\${serverText}__device_\`) && !name.slice(28).includes("__") || name === "Probe" + "Tool" || name.endsWith(".local");
}
function parseName(entry) {
  return entry.mcpInfo.nameKey ?? entry.mcpInfo.serverName;
}`);

describe("the changed lines' name tests and property paths", () => {
  it("a literal, a constant, a template of constants and a `+` of literals, by the test made", () => {
    const c = codeTokens(BEFORE, AFTER).changedCode;
    expect(c.nameTests).toEqual([
      { test: "prefix", text: "mcp__remote-devices__device_" },
      { test: "part", text: "__" },
      { test: "equal", text: "ProbeTool" },
      { test: "suffix", text: ".local" },
    ]);
    expect(c.paths).toEqual(expect.arrayContaining(["entry.mcpInfo", "mcpInfo.nameKey", "mcpInfo.serverName"]));
    // Lines the diff leaves alone test nothing here.
    expect(codeTokens(AFTER, AFTER).changedCode.nameTests).toEqual([]);
  });

  it("the witness candidates hold tools that pass each test, early", () => {
    const first = [...take(witnessCandidates(codeTokens(BEFORE, AFTER)), 600)];
    const names = new Set(first.flatMap((c) => [...c.deferred, ...c.loaded].map((t) => t.name)));
    expect(names).toContain("mcp__remote-devices__device_probe");
    expect(names).toContain("mcp__remote-devices__device_probe__tool");
    expect(names).toContain("ProbeTool");
    expect(names).toContain("probe.local");
    // The MCP-shaped name comes with the server and tool its name says, and without mcpInfo too.
    const shaped = first.flatMap((c) => c.deferred).filter((t) => t.name === "mcp__remote-devices__device_probe");
    expect(shaped).toContainEqual(expect.objectContaining({ mcpInfo: { serverName: "remote-devices", toolName: "device_probe" } }));
    expect(shaped.some((t) => t.mcpInfo === undefined)).toBe(true);
    // A property read inside mcpInfo is set inside the tool's own mcpInfo.
    expect(first.some((c) => c.deferred.some((t) => (t.mcpInfo as Record<string, unknown> | undefined)?.nameKey !== undefined))).toBe(true);
    expect(first.some((c) => c.deferred.some((t) => "nameKey" in t))).toBe(false);
  });
});

function* take<T>(it: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return;
  for (const x of it) {
    yield x;
    if (--n <= 0) return;
  }
}
