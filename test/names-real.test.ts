/**
 * Readable names on real releases (issue 11): at most 5% of the identifier references in a lifted
 * module are placeholders, measured by the same script the bench runs (scripts/placeholders.mjs).
 */
import { describe, expect, it } from "vitest";
import { openContainer } from "../src/index.js";
import { locateRoutines } from "../src/locate/locate.js";
import { loadSignatures } from "../src/locate/signature.js";
import { toolSearchCode } from "../src/routines/tool-search/tool-search-code.js";
import { npmPackMember } from "./helpers/cache.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const signatures = loadSignatures(undefined, ["tool-search/scorer", "tool-search/call"]);
const scorerSignature = signatures.find((s) => s.id === "tool-search/scorer")!;
const callSignature = signatures.find((s) => s.id === "tool-search/call")!;

interface Share {
  lines: number;
  references: number;
  placeholders: number;
  share: number;
  top: Array<{ name: string; count: number }>;
}
const script = "../scripts/placeholders.mjs";
const { measure } = (await import(script)) as { measure: (text: string) => Share };

function readable(spec: string, member: string): string {
  const c = openContainer(npmPackMember(spec, member));
  try {
    const [scorer, call] = locateRoutines(c, [scorerSignature, callSignature]);
    return toolSearchCode(c, { scorer: scorer!, scorerSignature, call: call!, callSignature }).readable;
  } finally {
    c.close();
  }
}

describe.skipIf(skip)("names on real releases", () => {
  for (const [spec, member] of [
    ["@anthropic-ai/claude-code@2.0.70", "package/cli.js"],
    ["@anthropic-ai/claude-code@2.1.112", "package/cli.js"],
    ["@anthropic-ai/claude-code-linux-x64@2.1.332", "package/claude"],
  ] as const) {
    it(`${spec}: at most 5% placeholders`, () => {
      const m = measure(readable(spec, member));
      expect(m.references).toBeGreaterThan(200);
      expect(m.share, JSON.stringify(m.top)).toBeLessThanOrEqual(0.05);
    });
  }

  it("the curated names reach the releases where the helpers exist", () => {
    const text = readable("@anthropic-ai/claude-code-linux-x64@2.1.332", "package/claude");
    for (const name of ["escapeRegExp", "findToolByName", "formatNameList", "ToolDescriptionCache", "mapWithYield", "selectPattern"])
      expect(text).toContain(name);
    expect(readable("@anthropic-ai/claude-code@2.1.112", "package/cli.js")).toContain("function escapeRegExp(");
  });

  it("the description cache keeps one name and names its fields by what they hold, in each generation", () => {
    const fields = (text: string) =>
      [...(/\n {2}class ToolDescriptionCache \{\n((?: {4}#\w+.*\n)+)/.exec(text)?.[1]?.matchAll(/#(\w+)/g) ?? [])].map((m) => m[1]);
    const held = ["descriptions", "sortedNameText"];
    expect(fields(readable("@anthropic-ai/claude-code-linux-x64@2.1.300", "package/claude"))).toEqual(held);
    const later = [...held, "names", "parsedNames", "agentContext"];
    expect(fields(readable("@anthropic-ai/claude-code-linux-x64@2.1.332", "package/claude"))).toEqual(later);
    // 2.1.334 adds a flag and reletters the fields it had (`#o` became `#r`): the names stay.
    expect(fields(readable("@anthropic-ai/claude-code-linux-x64@2.1.334", "package/claude")).sort()).toEqual(
      [...later, "useServerInfoName"].sort(),
    );
  });

  /** The body of the module-level function `name` in `text`, or null. */
  const body = (text: string, name: string): string | null =>
    new RegExp(`\\n  (?:async )?function ${name}\\([^)]*\\) \\{\\n([\\s\\S]*?)\\n  \\}\\n`).exec(text)?.[1] ??
    new RegExp(`\\n  let ${name} = (?:async )?\\([^)]*\\) => \\{\\n([\\s\\S]*?)\\n  \\};\\n`).exec(text)?.[1] ??
    null;

  it("a helper keeps its name through generations whose code differs", () => {
    // Each generation's version of the helper, told by what its own code does.
    const versions: Array<[string, string, Record<string, RegExp[]>]> = [
      [
        "@anthropic-ai/claude-code@2.1.10",
        "package/cli.js",
        {
          parseToolName: [/\bserver\b/, /\bactions\b/, /full: /],
          buildSearchResult: [/total_mcp_tools/],
          containsWord: [/new RegExp\(`\\\\b\$\{/, /\.test\(/],
        },
      ],
      [
        "@anthropic-ai/claude-code@2.1.64",
        "package/cli.js",
        {
          parseToolName: [/isMcp/],
          buildSearchResult: [/total_deferred_tools/],
          containsWord: [/escapeRegExp\(/, /\.test\(/],
          findToolByName: [/\.find\(/, /hasNameOrAlias\(/],
        },
      ],
      [
        "@anthropic-ai/claude-code-linux-x64@2.1.325",
        "package/claude",
        {
          remoteDevicesNote: [/linked computer/],
          mapMcpServerName: [/\.startsWith\(/, /\.indexOf\("__"\)/],
          toInternalMcpName: [/return mapMcpServerName\(/],
          withRemoteDeviceTools: [/isRemoteDeviceTool/, /collectLoadedToolNames\(/],
        },
      ],
      [
        "@anthropic-ai/claude-code-linux-x64@2.1.332",
        "package/claude",
        {
          remoteDevicesNote: [/linked computer/, /toRemoteDeviceName/],
          findToolByName: [/\.get\(/, /buildNameIndex\(/],
          withRemoteDeviceTools: [/asksForShell && findToolByName\(/, /collectLoadedToolNames\(/],
        },
      ],
    ];
    for (const [spec, member, helpers] of versions) {
      const text = readable(spec, member);
      for (const [name, traits] of Object.entries(helpers)) {
        const code = body(text, name);
        expect(code, `${spec}: no function ${name}`).not.toBeNull();
        for (const trait of traits) expect(code, `${spec}: ${name}`).toMatch(trait);
      }
    }
  });

  it("names keyed by a helper's code shape land on that helper, in each generation that has it", () => {
    // What each helper does, told by its code: the name must sit on a function that does it.
    const does: Record<string, RegExp[]> = {
      parseMcpToolName: [/serverName/, /toolName/, /"__"/, /return null/],
      hasNameOrAlias: [/\.aliases\?\.includes\(/, /\.name === /],
      namesEqual: [/^\s*if \((\w+) === (\w+)\) return true;/, /\.length !== /],
      makeDetachedCopy: [/Uint16Array/, /fromCharCode/],
      isToolResultBlock: [/"tool_result"/, /Array\.isArray/],
      isToolReferenceBlock: [/=== "tool_reference"/],
      findToolsNamed: [/mcpInfo\.toolName ===/, /\.filter\(/],
      collectLoadedToolNames: [/compact_boundary/, /new Set\(/],
      dedupe: [/^\s*return \[\.\.\.new Set\(\w+\)\];\s*$/],
      describeTool: [/\.prompt\(\{/, /getToolPermissionContext/],
    };
    const expected: Array<[string, string, string[]]> = [
      ["@anthropic-ai/claude-code@2.0.70", "package/cli.js", ["describeTool"]],
      ["@anthropic-ai/claude-code@2.1.112", "package/cli.js", ["describeTool", "hasNameOrAlias"]],
      ["@anthropic-ai/claude-code-linux-x64@2.1.124", "package/claude", ["parseMcpToolName", "hasNameOrAlias"]],
      ["@anthropic-ai/claude-code-linux-x64@2.1.332", "package/claude", Object.keys(does).filter((n) => n !== "describeTool")],
    ];
    for (const [spec, member, names] of expected) {
      const text = readable(spec, member);
      for (const name of names) {
        const code = body(text, name);
        expect(code, `${spec}: no function ${name}`).not.toBeNull();
        for (const trait of does[name]!) expect(code, `${spec}: ${name}`).toMatch(trait);
      }
    }
  });
});
