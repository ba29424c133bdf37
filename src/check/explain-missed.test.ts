import { describe, expect, it } from "vitest";
import { clientTool } from "./naming.js";
import { explainMissed, missedProbes, missedTermText, nameParts, wordProbe, wordsOf } from "./explain-missed.js";
import type { ReleaseProbes } from "./rank.js";
import type { ProbeBatch, ToolProbe } from "./tool-probes.js";

const probes = (description: number | null, searchHint: number | null): ReleaseProbes => ({
  scores: new Map(),
  bareSelect: null,
  readLimit: { description, searchHint },
  maxResults: null,
});

/** A batch that scores as a simple release: +12 for a name part, +4 a hint word (when hints are read), +2 a description word. */
function scorer(readsHints: boolean): ProbeBatch {
  return {
    get(p: ToolProbe) {
      if (p.kind !== "score") return null;
      const score = (term: string) =>
        (nameParts(p.tool.mcpInfo.toolName).includes(term) ? 12 : 0) +
        (readsHints && wordsOf(p.tool.searchHint ?? "").includes(term) ? 4 : 0) +
        (wordsOf(p.tool.description).includes(term) ? 2 : 0);
      return p.query.split(" ").reduce((n, t) => n + score(t), 0);
    },
  } as unknown as ProbeBatch;
}

describe("names and words", () => {
  it("splits names at separators and case changes", () => {
    expect(nameParts("getForecast.v2-now_x")).toEqual(["get", "forecast", "v2", "now", "x"]);
    expect(wordsOf("An attachment, or two!")).toEqual(["an", "attachment", "or", "two"]);
  });
});

describe("explainMissed", () => {
  const tool = clientTool("mail", {
    name: "send_mail",
    description: "Send an email with an attachment",
    _meta: { "anthropic/searchHint": "outbox" },
  });

  it("asks for each word with the tool whole and with fields left out, and about words that contain it", () => {
    const ps = missedProbes("attach mail", tool);
    expect(ps).toContainEqual({ kind: "score", query: "attach", tool: wordProbe("attachment") });
    // attachment contains attach, email contains mail.
    expect(ps).toHaveLength(1 + 4 + 1 + 4 + 1);
    expect(missedProbes("select:send_mail", tool)).toEqual([]);
  });

  it("says which part each word matched, and the near misses, measured", () => {
    const x = explainMissed(scorer(true), "attach mail outbox", tool, probes(1000, 1000))!;
    expect(x.score).toBe(16);
    expect(x.terms.map((t) => [t.term, t.score, t.matched])).toEqual([
      ["attach", 0, []],
      ["mail", 12, ['tool name part "mail"', "the whole server name"]],
      ["outbox", 4, ["searchHint word"]],
    ]);
    expect(x.terms[0]!.nearMisses).toEqual([
      '"attach" is not the word "attachment" (in its description): this release scores whole words only',
    ]);
    expect(missedTermText(x.terms[0]!)).toBe(
      '"attach" matched nothing ("attach" is not the word "attachment" (in its description): this release scores whole words only)',
    );
    expect(missedTermText(x.terms[1]!)).toBe(
      '"mail" 12 = name [tool name part "mail", the whole server name] 12; "mail" is not the word "email" (in its description): this release scores whole words only',
    );
  });

  it("says when a release ignores hints, or reads a word past its prefix", () => {
    const x = explainMissed(scorer(false), "outbox", tool, probes(1000, -1))!;
    expect(x.terms[0]!.nearMisses).toEqual(['"outbox" is in its searchHint, and this release scores no searchHint words']);
    const late = clientTool("s", { name: "t", description: `${"x ".repeat(40)}weather` });
    const none = { get: () => 0 } as unknown as ProbeBatch;
    expect(explainMissed(none, "weather", late, probes(20, -1))!.terms[0]!.nearMisses).toEqual([
      '"weather" is in its description at character 80, past the first 20 characters this release reads',
    ]);
  });
});
