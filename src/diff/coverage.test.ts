import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "acorn";
import { beforeAll, describe, expect, it } from "vitest";
import { lift } from "../api/lift.js";
import { moduleToScript } from "../verify/verify.js";
import { changedLines, instrument } from "./coverage.js";
import { runCalls, runCallsReaching, type ContractCall } from "./witness-run.js";

describe("changedLines", () => {
  it("gives the removed lines of the first text and the added lines of the second", () => {
    const [a, b] = changedLines("x\ny\nz\n", "x\nY\nz\nw\n");
    expect([...a]).toEqual([2]);
    expect([...b]).toEqual([2, 4]);
  });
});

describe("instrument", () => {
  const module = [
    "function pick(x, n) {",
    "  let a = x > 3 ? n : 0;",
    "  if (a) return a;",
    "  return x && n;",
    "}",
    "export { pick };",
  ].join("\n");

  it("probes each changed statement and the arms of its branches, and still parses", () => {
    const { text, points } = instrument(module, new Set([2, 3, 4]));
    expect(() => parse(text, { ecmaVersion: "latest", sourceType: "module" })).not.toThrow();
    expect(points.map((p) => [p.line, p.kind, p.code])).toEqual([
      [2, "statement", "let a = x > 3 ? n : 0;"],
      [2, "branch", "n"],
      [2, "branch", "0"],
      [3, "statement", "if (a) return a;"],
      [3, "branch", "return a;"],
      [3, "statement", "return a;"],
      [4, "statement", "return x && n;"],
      [4, "branch", "n"],
    ]);
  });

  it("leaves code off the changed lines, and top-level code, as it was", () => {
    const { text, points } = instrument(module, new Set([1, 6]));
    expect(points).toEqual([]);
    expect(text.startsWith(module)).toBe(true);
  });
});

describe("coverage of two lifted releases in the sandbox", () => {
  let before: string;
  let after: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-coverage-"));
    const release = readFileSync(new URL("../../samples/releases/0.3.0", import.meta.url), "utf8");
    const capped = release.replace(
      ".filter((w) => w.length > 0);\n  let patterns",
      ".filter((w) => w.length > 0).slice(0, 2);\n  let patterns",
    );
    expect(capped).not.toBe(release);
    writeFileSync(join(dir, "a.js"), release);
    writeFileSync(join(dir, "b.js"), capped);
    const out = join(dir, "out");
    before = readFileSync((await lift(join(dir, "a.js"), { out: join(out, "a"), verify: false })).module, "utf8");
    after = readFileSync((await lift(join(dir, "b.js"), { out: join(out, "b"), verify: false })).module, "utf8");
  }, 60_000);

  it("answers as the module does, and says which call first reached each changed statement", async () => {
    const [la, lb] = changedLines(before, after);
    const ia = instrument(before, la);
    const ib = instrument(after, lb);
    // The scorer's statement that makes the terms, in both copies of the scorer (searchTools and scoreTools).
    const terms = (points: typeof ia.points) =>
      points.flatMap((p, i) => (p.kind === "statement" && p.code.startsWith("let terms") ? [i] : []));
    expect(terms(ib.points)).toHaveLength(2);
    const tool = { name: "mcp__slack__send_message", description: "Send a message" };
    const calls: ContractCall[] = [
      { fn: "toolSearch", query: "select:mcp__slack__send_message", deferred: [tool], loaded: [] },
      { fn: "searchTools", query: "send slack message", deferred: [tool], loaded: [] },
    ];
    const plain = await runCalls({ script: moduleToScript(after), label: "b" }, calls);
    const run = await runCallsReaching(
      { script: moduleToScript(ia.text), label: "a" },
      { script: moduleToScript(ib.text), label: "b" },
      calls,
    );
    expect(run.results[1]).toEqual(plain);
    // The select: call returns before the scorer; the keyword call (index 1) is the first to reach it.
    expect(run.reached[1].get(terms(ib.points)[0]!)).toBe(1);
    expect(run.reached[0].get(terms(ia.points)[0]!)).toBe(1);
    // scoreTools is never called: its copy of the statement is not reached.
    expect(run.reached[1].has(terms(ib.points)[1]!)).toBe(false);
  }, 60_000);
});

describe("instrument, in a loop's head", () => {
  it("leaves the declaration of a for-of head in place", () => {
    const module = "async function f(xs) {\n  let out = [];\n  for (let x of xs) out.push(await x);\n  return out;\n}\nexport { f };\n";
    const { text, points } = instrument(module, new Set([3]));
    expect(() => parse(text, { ecmaVersion: "latest", sourceType: "module" })).not.toThrow();
    expect(points.map((p) => p.code)).toEqual(["for (let x of xs) out.push(await x);", "out.push(await x);"]);
  });
});

describe("what must hold for a changed point to run", () => {
  const cls = (made: string, fallback = "false") => `class Cache {
  #useExtra;
  constructor(context = {}, useExtra = ${fallback}) {
    this.#useExtra = useExtra;
  }
  nameOf(entry) {
    return [entry.name, this.#useExtra && entry.extra !== undefined ? entry.extra : undefined];
  }
}
function search(tools) {
  let cache = ${made};
  return tools.map((t) => cache.nameOf(t));
}
`;
  const line = (text: string) => text.split("\n").findIndex((l) => l.includes("entry.extra !==")) + 1;
  const whys = (text: string) =>
    instrument(text, new Set([line(text)]))
      .points.filter((p) => p.kind === "branch")
      .map((p) => p.why ?? null);

  it("a constructor option with a falsy default that no `new` passes", () => {
    const why = "reached only when Cache is made with its constructor option useExtra, which no code in this module passes";
    // The `&&`'s right and the `?:`'s consequent; its alternate runs whatever the option.
    expect([...whys(cls("new Cache({})"))].sort()).toEqual([null, why, why].sort());
  });

  it("not when some `new` passes it, nor when its default is truthy", () => {
    expect(whys(cls("new Cache({}, true)"))).toEqual([null, null, null]);
    expect(whys(cls("new Cache({})", "true"))).toEqual([null, null, null]);
  });
});
