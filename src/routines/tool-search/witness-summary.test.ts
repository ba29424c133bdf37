/**
 * A witness's sentence stays short whatever its inputs: at most MAX_SENTENCE characters, naming the query, the
 * tools the answers differ on and the answers before → after, with room left for "toolSearch and searchTools".
 */
import { describe, expect, it } from "vitest";
import type { Witness } from "../../diff/witness-search.js";
import type { Tool } from "./corpus.js";
import { MAX_SENTENCE, witnessSummary } from "./witness-summary.js";

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  description: "A tool",
  isMcp: name.startsWith("mcp__"),
  ...extra,
});
const long = (i: number) => `mcp__${"server".repeat(4)}_${i}__${"do_something_".repeat(3)}${i}`;
const witness = (w: Partial<Witness>): Witness => ({ fn: "toolSearch", query: "q", deferred: [], loaded: [], before: [], after: [], ...w });

describe("witnessSummary", () => {
  it("a reordering of long names over a long query fits, both orders said", () => {
    const deferred = [tool(long(1)), tool(long(2))];
    const line = witnessSummary(
      witness({ query: "pull requests and issues ".repeat(3), deferred, before: [long(1), long(2)], after: [long(2), long(1)] }),
    );
    expect(line.length).toBeLessThanOrEqual(MAX_SENTENCE - "and searchTools ".length);
    expect(line).toMatch(/^toolSearch `"pull requests and issues"… \(75 characters\)` /);
    expect(line).toMatch(/returns .*_2, .*_1 \(was: .*_1, .*_2\)$/);
  });

  it("a tool whose mcpInfo is not an object says what it holds, and one holding another's name as an alias says that", () => {
    const text = tool("WebFetch", { mcpInfo: "github" as unknown as Tool["mcpInfo"] });
    const line = witnessSummary(
      witness({
        fn: "scoreTools",
        query: "",
        deferred: [text],
        before: [{ name: "WebFetch", score: 0 }],
        after: { error: "TypeError: Invalid value used as weak map key" },
      }),
    );
    expect(line).toBe(
      'scoreTools `""` (deferred: WebFetch (mcpInfo "github", not an object)) now throws (TypeError: Invalid value used as weak map key); it returned WebFetch',
    );
    const pair = [tool("REPL", { aliases: ["Eval", "Other"] }), tool("Eval")];
    expect(witnessSummary(witness({ query: "select:Eval", deferred: pair, before: ["REPL"], after: ["Eval"] }))).toBe(
      'toolSearch `"select:Eval"` (deferred: Eval, REPL (alias Eval)) returns Eval (was: REPL)',
    );
  });

  it("toolSearch and searchTools twins shorten alike: the same words after their names, however long", () => {
    const odd = tool("mcp__probe__tool_x", { mcpInfo: "probe" as unknown as Tool["mcpInfo"] });
    for (let n = 0; n <= 160; n++) {
      const error = `TypeError: Cannot read properties of undefined (reading '${"x".repeat(n)}')`;
      const w = witness({ query: "", deferred: [odd], before: [], after: { error } });
      const [t, s] = [witnessSummary(w), witnessSummary({ ...w, fn: "searchTools" })];
      expect(t.slice("toolSearch".length)).toBe(s.slice("searchTools".length));
      expect(`toolSearch and searchTools${t.slice("toolSearch".length)}`.length).toBeLessThanOrEqual(MAX_SENTENCE);
    }
  });

  it("a throw on a tool without mcpInfo.toolName says so, and names the tool first among many", () => {
    const odd = tool(long(7), { mcpInfo: { serverName: "s" } });
    const deferred = [...Array.from({ length: 9 }, (_, i) => tool(`mcp__s__t${i}`)), odd];
    const error = "TypeError: Cannot read properties of undefined (reading 'toLowerCase') at a very long stack of frames";
    const line = witnessSummary(
      witness({ fn: "scoreTools", query: "b", deferred, before: deferred.map((t) => ({ name: t.name, score: 0 })), after: { error } }),
    );
    expect(line.length).toBeLessThanOrEqual(MAX_SENTENCE);
    expect(line).toContain("(mcpInfo without toolName)");
    expect(line).toContain(" now throws (TypeError: Cannot read");
    expect(line.indexOf(long(7).slice(0, 20))).toBeLessThan(line.indexOf("mcp__s__t0") < 0 ? Infinity : line.indexOf("mcp__s__t0"));
  });

  it("a reordering after a common head is shown from where the lists part", () => {
    const names = ["mcp__a__one", "mcp__a__two", "mcp__a__three", "mcp__a__four", "mcp__a__five", "mcp__a__six"];
    const line = witnessSummary(
      witness({
        fn: "searchTools",
        deferred: names.map((n) => tool(n)),
        before: names,
        after: [...names.slice(0, 4), names[5]!, names[4]!],
      }),
    );
    expect(line).toMatch(/ returns …, mcp__a__six, mcp__a__five \(was: …, mcp__a__five, mcp__a__six\)$/);
  });

  it("scores that changed are named with their numbers", () => {
    const deferred = [tool("mcp__slack__send_message"), tool("WebFetch")];
    const line = witnessSummary(
      witness({
        fn: "scoreTools",
        query: "d mes",
        deferred,
        before: [
          { name: "mcp__slack__send_message", score: 12 },
          { name: "WebFetch", score: 0 },
        ],
        after: [
          { name: "mcp__slack__send_message", score: 20 },
          { name: "WebFetch", score: 0 },
        ],
      }),
    );
    expect(line).toBe('scoreTools `"d mes"` (deferred: mcp__slack__send_message, WebFetch): scores mcp__slack__send_message 12 → 20');
  });
});
