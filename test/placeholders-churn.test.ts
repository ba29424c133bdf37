import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain script, without types
import { renameChurn } from "../scripts/placeholders.mjs";

interface Churn {
  units: [number, number];
  matched: number;
  names: number;
  renamed: number;
  examples: string[];
}
const churn = (a: string[], b: string[]): Churn => renameChurn(a.join("\n") + "\n", b.join("\n") + "\n") as Churn;

describe("scripts/placeholders.mjs: rename churn between two modules", () => {
  const before = [
    "function score(tool, terms) {",
    "  let total = 0;",
    "  for (let term of terms) if (tool.name.includes(term)) total += 2;",
    "  return total;",
    "}",
    "const rank = (tools, terms) => tools.map((tool) => ({ tool, score: score(tool, terms) }));",
    "function unchanged(list) { return list.length; }",
  ];
  it("counts the names that changed in functions whose code is the same but for names", () => {
    const after = [...before];
    after[1] = "  let points = 0;";
    after[2] = "  for (let term of terms) if (tool.name.includes(term)) points += 2;";
    after[3] = "  return points;";
    const c = churn(before, after);
    // score's own names: score, tool, terms, total, term (Math-free, no globals); one of them renamed.
    expect(c).toMatchObject({ units: [3, 3], matched: 3, renamed: 1, examples: ["total → points"] });
    expect(c.names).toBe(5 + 5 + 2);
  });
  it("leaves out a function whose code changed, and counts a function's inner function as its own", () => {
    const after = [...before];
    after[2] = "  for (let term of terms) if (tool.name.includes(term)) total += 3;";
    after[5] = "const rank = (tools, terms) => tools.map((item) => ({ tool: item, score: score(item, terms) }));";
    const c = churn(before, after);
    expect(c.matched).toBe(2);
    // rank's names: rank, tools, map's item (tool → item; the key `tool` is not a name), terms, score.
    expect(c.renamed).toBe(1);
    expect(c.examples).toEqual(["tool → item"]);
  });
  it("no churn between a module and itself; globals are not names", () => {
    const c = churn(
      [...before, "function now() { return Math.max(Date.now(), 0); }"],
      [...before, "function now() { return Math.max(Date.now(), 0); }"],
    );
    expect(c).toMatchObject({ matched: 4, renamed: 0 });
    expect(c.names).toBe(5 + 5 + 2 + 1);
  });
});
