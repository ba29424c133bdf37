/**
 * locate on real Claude Code releases (cached from the npm registry, never committed). The pinned
 * locations and bindings were read by hand from each release's code; each routine a release has
 * must be found exactly once, the others reported absent.
 */
import { describe, expect, it } from "vitest";
import { openContainer } from "../src/index.js";
import { locate, type RoutineResult } from "../src/locate/locate.js";
import { loadSignatures } from "../src/locate/signature.js";
import { npmPackMember } from "./helpers/cache.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const signatures = loadSignatures();

function locateAll(file: string): Record<string, RoutineResult> {
  const c = openContainer(file);
  try {
    return Object.fromEntries(locate(c, signatures).map((r) => [r.id, r]));
  } finally {
    c.close();
  }
}

type Pin = { variant: string; roles?: Record<string, string>; module?: string | RegExp; line?: number };
type Release = { spec: string; member: string; pins: Record<string, Pin | "absent"> };

const releases: Release[] = [
  {
    spec: "@anthropic-ai/claude-code@2.0.70",
    member: "package/cli.js",
    pins: {
      "tool-search/scorer": {
        variant: "mcp-name-substring",
        line: 2941,
        roles: { searchTools: "BX5", query: "A", deferredTools: "Q", maxResults: "G", terms: "Z", score: "K", tool: "J" },
      },
      "tool-search/call": {
        variant: "single-select",
        roles: { input: "A", query: "B", maxResults: "G", searchTools: "BX5", deferredTools: "Z", allTools: "Q" },
      },
      "tool-search/mode": { variant: "opt-in", roles: { getToolSearchMode: "rrA" } },
      "tool-search/name-parser": "absent",
      "tool-search/defer-policy": "absent",
    },
  },
  {
    spec: "@anthropic-ai/claude-code@2.1.19",
    member: "package/cli.js",
    pins: {
      "tool-search/scorer": {
        variant: "required-terms",
        roles: { searchTools: "g4Y", query: "A", terms: "$", term: "M", score: "j", tool: "Z", parsedName: "G" },
      },
      "tool-search/call": { variant: "single-select", roles: { query: "q", maxResults: "Y", searchTools: "g4Y" } },
      "tool-search/mode": { variant: "flag-default", roles: { getToolSearchMode: "aKA", parseAutoPercent: "pI6" } },
      "tool-search/name-parser": { variant: "name-string", roles: { parseToolName: "A77" } },
      "tool-search/defer-policy": { variant: "mcp-only", roles: { isDeferredTool: "eV" } },
    },
  },
  {
    spec: "@anthropic-ai/claude-code@2.1.64",
    member: "package/cli.js",
    pins: {
      "tool-search/scorer": { variant: "search-hint", roles: { searchTools: "HzY", terms: "j", score: "G", tool: "D", parsedName: "X" } },
      "tool-search/call": { variant: "select-list", roles: { query: "z", maxResults: "w", searchTools: "HzY" } },
      // An internal mode function of the same shape (nYY) sits beside the external one.
      "tool-search/mode": { variant: "flag-default", roles: { getToolSearchMode: "CE8" } },
      "tool-search/name-parser": { variant: "name-string", roles: { parseToolName: "TM4" } },
      "tool-search/defer-policy": { variant: "gated-should-defer", roles: { isDeferredTool: "SG" } },
    },
  },
  {
    spec: "@anthropic-ai/claude-code@2.1.112",
    member: "package/cli.js",
    pins: {
      "tool-search/scorer": {
        variant: "search-hint",
        roles: { searchTools: "EjY", query: "q", deferredTools: "K", maxResults: "z", score: "G", tool: "M", parsedName: "P" },
      },
      "tool-search/call": { variant: "select-list", roles: { input: "q", query: "z", maxResults: "Y", searchTools: "EjY" } },
      "tool-search/mode": { variant: "auto-percent", roles: { getToolSearchMode: "Az7", parseAutoPercent: "MLK" } },
      "tool-search/name-parser": { variant: "tool-object", roles: { parseToolName: "_vK" } },
      "tool-search/defer-policy": { variant: "always-load", roles: { isDeferredTool: "nI" } },
    },
  },
  {
    spec: "@anthropic-ai/claude-code-linux-x64@2.1.124",
    member: "package/claude",
    pins: {
      "tool-search/scorer": {
        variant: "coarse-parts",
        module: "/$bunfs/root/src/entrypoints/cli.js",
        roles: { searchTools: "NR_", score: "G", parsedName: "X" },
      },
      "tool-search/call": { variant: "select-list", roles: { searchTools: "NR_", query: "_", maxResults: "A" } },
      "tool-search/mode": { variant: "auto-percent", roles: { getToolSearchMode: "sG6" } },
      "tool-search/name-parser": { variant: "coarse-parts", roles: { parseToolName: "PR7" } },
      "tool-search/defer-policy": { variant: "always-load", roles: { isDeferredTool: "uB" } },
    },
  },
  {
    spec: "@anthropic-ai/claude-code-linux-x64@2.1.332",
    member: "package/claude",
    pins: {
      "tool-search/scorer": {
        variant: "session-cache",
        module: "/$bunfs/root/chunk-z2hgkt87.js",
        line: 155,
        roles: {
          searchTools: "Nun",
          query: "e",
          deferredTools: "n",
          maxResults: "g",
          terms: "Y",
          term: "Pe",
          score: "Se",
          tool: "ie",
          parsedName: "_e",
          sessionCache: "y",
        },
      },
      "tool-search/call": {
        variant: "capped-query",
        module: "/$bunfs/root/chunk-bqhgd24a.js",
        roles: {
          query: "Dt",
          maxResults: "Nt",
          selectPattern: "_vr",
          capQuery: "ANi",
          searchTools: "Nun",
          deferredTools: "po",
          allTools: "Jn",
        },
      },
      "tool-search/mode": {
        variant: "auto-percent",
        module: "/$bunfs/root/chunk-xx7hthae.js",
        roles: { getToolSearchMode: "Vie", parseAutoPercent: "gJi" },
      },
      "tool-search/name-parser": { variant: "coarse-parts", module: "/$bunfs/root/chunk-z2hgkt87.js", roles: { parseToolName: "jb" } },
      "tool-search/defer-policy": { variant: "guidance", module: "/$bunfs/root/chunk-nvq28d5s.js", roles: { isDeferredTool: "E" } },
    },
  },
  {
    // The same release built for another platform: other chunk names, other minified names.
    spec: "@anthropic-ai/claude-code-darwin-arm64@2.1.332",
    member: "package/claude",
    pins: {
      "tool-search/scorer": { variant: "session-cache", module: /^\/\$bunfs\/root\/chunk-/, roles: { searchTools: "dfn", score: "Se" } },
      "tool-search/call": { variant: "capped-query", roles: { searchTools: "dfn", query: "Nt", selectPattern: "dTo" } },
      "tool-search/mode": { variant: "auto-percent", roles: { getToolSearchMode: "vne" } },
      "tool-search/name-parser": { variant: "coarse-parts", roles: { parseToolName: "Bb" } },
      "tool-search/defer-policy": { variant: "guidance" },
    },
  },
  {
    spec: "@anthropic-ai/claude-code-win32-x64@2.1.332",
    member: "package/claude.exe",
    pins: {
      "tool-search/scorer": { variant: "session-cache", module: /^B:\/~BUN\/root\/chunk-/, roles: { searchTools: "jun" } },
      "tool-search/call": { variant: "capped-query", roles: { searchTools: "jun", query: "Dt", selectPattern: "wEr" } },
      "tool-search/mode": { variant: "auto-percent", roles: { getToolSearchMode: "nae" } },
      "tool-search/name-parser": { variant: "coarse-parts", roles: { parseToolName: "Gb" } },
      "tool-search/defer-policy": { variant: "guidance" },
    },
  },
];

// Releases between the pinned ones: every routine is there, matched by the generation it belongs to.
const between: Array<[string, Record<string, string>]> = [
  [
    "2.1.250",
    {
      "tool-search/scorer": "coarse-parts",
      "tool-search/call": "select-list",
      "tool-search/defer-policy": "always-load",
      "tool-search/mode": "auto-percent",
      "tool-search/name-parser": "coarse-parts",
    },
  ],
  [
    "2.1.300",
    {
      "tool-search/scorer": "coarse-parts",
      "tool-search/call": "capped-match",
      "tool-search/defer-policy": "should-defer",
      "tool-search/mode": "auto-percent",
      "tool-search/name-parser": "coarse-parts",
    },
  ],
];

describe.skipIf(skip)("locate between the pinned releases", () => {
  for (const [version, variants] of between) {
    it(`linux-x64@${version}: each routine found once`, () => {
      const got = locateAll(npmPackMember(`@anthropic-ai/claude-code-linux-x64@${version}`, "package/claude"));
      for (const [id, variant] of Object.entries(variants)) {
        expect(got[id]!.status, id).toBe("found");
        expect(got[id]!.variant, id).toBe(variant);
      }
    });
  }
});

describe.skipIf(skip)("locate on real releases", () => {
  for (const r of releases) {
    it(`${r.spec}: each routine found once with the right bindings`, () => {
      const got = locateAll(npmPackMember(r.spec, r.member));
      expect(Object.keys(got).sort()).toEqual(Object.keys(r.pins).sort());
      for (const [id, pin] of Object.entries(r.pins)) {
        const res = got[id]!;
        if (pin === "absent") {
          expect(res.status, id).toBe("absent");
          continue;
        }
        expect(res.status, `${id}: ${JSON.stringify(res.candidates ?? [])}`).toBe("found");
        expect(res.variant, id).toBe(pin.variant);
        if (pin.roles) expect(res.roles, id).toMatchObject(pin.roles);
        if (typeof pin.module === "string") expect(res.module, id).toBe(pin.module);
        else if (pin.module) expect(res.module, id).toMatch(pin.module);
        if (pin.line) expect(res.line, id).toBe(pin.line);
        expect(res.end! - res.start!, id).toBeGreaterThan(40);
        expect(res.fileEnd! - res.fileStart!).toBe(res.end! - res.start!);
      }
    });
  }
});
