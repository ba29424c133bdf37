import { describe, expect, it } from "vitest";
import { codeTokens } from "../../diff/code-tokens.js";
import type { ContractCall } from "../../diff/witness-run.js";
import { witnessCandidates } from "./witness-candidates.js";

describe("witnessCandidates, for changed code that reads a list field", () => {
  const before = "function keep(tool, word) {\n  return tool.name === word;\n}\n";
  const after = "function keep(tool, word) {\n  return tool.aliases.some((a) => a.toLowerCase() === word) || tool.name === word;\n}\n";

  it("early on, gives a tool that field holding a word the query requires, and a word that scores the tool", () => {
    const tokens = codeTokens(before, after);
    expect(tokens.changedCode.members).toContain("aliases");
    const first = [];
    for (const c of witnessCandidates(tokens)) {
      first.push(c);
      if (first.length >= 600) break;
    }
    const required = first.filter((c) => {
      const plus = c.query.split(/\s+/).filter((w) => w.startsWith("+") && w.length > 1);
      const others = c.query.split(/\s+/).filter((w) => !w.startsWith("+"));
      return c.deferred.some(
        (t) =>
          plus.some((w) => (t.aliases ?? []).some((a) => a.toLowerCase() === w.slice(1))) &&
          !plus.some((w) => t.name.toLowerCase().includes(w.slice(1))) &&
          others.some((w) => (t.description ?? "").toLowerCase().includes(w)),
      );
    });
    expect(required.length).toBeGreaterThan(0);
  });
});

describe("witnessCandidates, for changed code that compares names for equality", () => {
  // A lookup by name or alias that, for one pair of names, now prefers the tool of that very name.
  const before = "function find(tools, name) {\n  return tools.find((t) => t.name === name || t.aliases?.includes(name));\n}\n";
  const after =
    'let runText = "Run";\nlet shellText = "Shell";\nfunction find(tools, name) {\n  let tool = tools.find((t) => t.name === name || t.aliases?.includes(name));\n' +
    "  if (tool && name === runText && tool.name === shellText) return tools.find((t) => t.name === name) ?? tool;\n  return tool;\n}\n";

  it("early on, gives a tool named one of them holding the other as an alias, beside the tool of that name, asked for by it", () => {
    const tokens = codeTokens(before, after);
    const first: ContractCall[] = [];
    for (const c of witnessCandidates(tokens)) {
      first.push(c);
      if (first.length >= 600) break;
    }
    const both = (c: ContractCall, x: string, y: string) => {
      const tools = [...c.deferred, ...c.loaded];
      return tools.some((t) => t.name === y && (t.aliases ?? []).includes(x)) && tools.some((t) => t.name === x);
    };
    const asked = first.filter((c) => both(c, "Run", "Shell"));
    expect(asked.map((c) => c.query)).toContain("select:Run");
    // A query word only one of the two descriptions holds: which tool a name's description is read from shows.
    expect(
      asked.some((c) => {
        const words = c.query.toLowerCase().split(/\s+/);
        const holds = (name: string) =>
          [...c.deferred, ...c.loaded].some((t) => t.name === name && words.some((w) => (t.description ?? "").toLowerCase().includes(w)));
        return c.fn === "searchTools" && holds("Run") !== holds("Shell");
      }),
    ).toBe(true);
    // The holder ahead of the tool of that name, among deferred tools: a lookup taking the first answer takes it.
    expect(asked.some((c) => c.deferred[0]?.name === "Shell" && c.deferred[1]?.name === "Run")).toBe(true);
  });
});

describe("witnessCandidates, for changed code that reads mcpInfo", () => {
  // Parsed name parts now kept in a WeakMap keyed by the tool's mcpInfo: a key that is not an object throws.
  const before = "function parts(tool) {\n  return parse(tool.mcpInfo);\n}\n";
  const after =
    "let cache = new WeakMap();\nfunction parts(tool) {\n  let p = cache.get(tool.mcpInfo);\n  if (!p) cache.set(tool.mcpInfo, (p = parse(tool.mcpInfo)));\n  return p;\n}\n";

  it("early on, gives a tool whose mcpInfo is a text, a flag and a number, beside an ordinary tool", () => {
    const first: ContractCall[] = [];
    for (const c of witnessCandidates(codeTokens(before, after))) {
      first.push(c);
      if (first.length >= 600) break;
    }
    const kinds = new Set(
      first.flatMap((c) =>
        [...c.deferred, ...c.loaded].flatMap((t) => (t.mcpInfo !== undefined && typeof t.mcpInfo !== "object" ? [typeof t.mcpInfo] : [])),
      ),
    );
    expect([...kinds].sort()).toEqual(["boolean", "number", "string"]);
  });
});

describe("witnessCandidates, for changed code that cuts a name after a prefix", () => {
  // split on the separator before, a prefix and indexOf after it: a name with nothing between the prefix and the
  // separator is where the two parses can part, and no name of the grammar is built that way.
  const before =
    'function parse(name) {\n  let [head, server, ...rest] = name.split("::");\n  if (head !== "tk" || !server) return null;\n  return { server, tool: rest.join("::") };\n}\n';
  const after =
    'let prefixText = "tk::";\nfunction parse(name) {\n  if (!name.startsWith(prefixText)) return null;\n  let at = name.indexOf("::", prefixText.length);\n  if (at === prefixText.length) return null;\n  return { server: name.slice(prefixText.length, at), tool: name.slice(at + 2) };\n}\n';

  it("early on, names a tool at the edges of the parse: the part right after the prefix, at the end, the prefix alone", () => {
    const tokens = codeTokens(before, after);
    const names = new Set<string>();
    let n = 0;
    for (const c of witnessCandidates(tokens)) {
      for (const t of [...c.deferred, ...c.loaded]) names.add(t.name);
      if (++n >= 2000) break;
    }
    expect(names).toContain("tk::::probe");
    expect(names).toContain("tk::probe::");
    expect(names).toContain("tk::");
  });
});
