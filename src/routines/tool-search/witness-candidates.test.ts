import { describe, expect, it } from "vitest";
import { codeTokens } from "../../diff/code-tokens.js";
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
