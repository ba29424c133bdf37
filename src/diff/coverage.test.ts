import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "acorn";
import { beforeAll, describe, expect, it } from "vitest";
import { lift } from "../api/lift.js";
import { moduleToScript } from "../verify/module-script.js";
import { COVERAGE_EXPORT, changedLines, instrument } from "./coverage.js";
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

  it("probes each changed statement, the arms of its branches and the outcomes of its tests, and still parses", () => {
    const { text, points } = instrument(module, new Set([2, 3, 4]));
    expect(() => parse(text, { ecmaVersion: "latest", sourceType: "module" })).not.toThrow();
    expect(points.map((p) => [p.line, p.kind, p.code, p.why ?? null])).toEqual([
      [2, "statement", "let a = x > 3 ? n : 0;", null],
      [2, "branch", "n", null],
      [2, "branch", "0", null],
      [2, "condition", "x > 3", "never true"],
      [2, "condition", "x > 3", "never false"],
      [3, "statement", "if (a) return a;", null],
      [3, "branch", "return a;", null],
      [3, "condition", "a", "never true"],
      [3, "condition", "a", "never false"],
      [3, "statement", "return a;", null],
      [4, "statement", "return x && n;", null],
      [4, "branch", "n", null],
      // `n` is the value returned, not a test: only `x` decides which way the `&&` goes.
      [4, "condition", "x", "never true"],
      [4, "condition", "x", "never false"],
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

/** The instrumented module, imported (our own synthetic code, not a release's): its export and the probes it reached. */
async function load(text: string, name: string) {
  const m = (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as Record<string, (...args: unknown[]) => unknown>;
  const reached = () => new Set((m[COVERAGE_EXPORT]!() as Array<[number, number]>).map(([i]) => i));
  return { fn: m[name]!, reached };
}

describe("condition outcomes", () => {
  const before =
    "function keep(tool, word) {\n  return tool.name === word || re.test(tool.description);\n}\nvar re = /a/g;\nexport { keep, re };\n";
  const after =
    "function keep(tool, word) {\n  return tool.aliases.includes(word) || tool.name === word || re.test(tool.description);\n}\nvar re = /a/g;\nexport { keep, re };\n";

  it("a new disjunct counts as seen deciding only when true with the rest of its `||` false", async () => {
    const { text, points } = instrument(after, new Set([2]), before);
    const at = (why: string) => points.findIndex((p) => p.code === "tool.aliases.includes(word)" && p.why?.startsWith(why));
    const [decides, isTrue, isFalse] = [at("never seen deciding its `||`"), at("never true"), at("never false")];
    expect([decides, isTrue, isFalse].every((i) => i >= 0)).toBe(true);
    // The operands the old module has are not new: no deciding point for them.
    expect(points.filter((p) => p.why?.startsWith("never seen deciding"))).toHaveLength(1);
    const m = await load(text, "keep");
    // True, but so is the old test after it: it decides nothing.
    expect(m.fn({ name: "x", aliases: ["x"], description: "" }, "x")).toBe(true);
    expect([isTrue, isFalse, decides].map((i) => m.reached().has(i))).toEqual([true, false, false]);
    expect(m.fn({ name: "y", aliases: [], description: "bbb" }, "x")).toBe(false);
    expect(m.reached().has(isFalse)).toBe(true);
    expect(m.reached().has(decides)).toBe(false);
    // True with the others false: the one case in which the new operand changes the answer.
    expect(m.fn({ name: "y", aliases: ["x"], description: "bbb" }, "x")).toBe(true);
    expect(m.reached().has(decides)).toBe(true);
  });

  it("checks the rest of the chain without moving a global regex's lastIndex, and passes values on as they were", async () => {
    const { text } = instrument(after, new Set([2]), before);
    const plain = await import(`data:text/javascript,${encodeURIComponent(after)}`);
    const m = (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as typeof plain;
    const tools = [
      { name: "y", aliases: ["x"], description: "xa" },
      { name: "x", aliases: ["x"], description: "a" },
      { name: "y", aliases: [], description: "ba" },
    ];
    const answers = (mod: typeof plain) => tools.map((t) => [mod.keep(t, "x"), mod.re.lastIndex]);
    expect(answers(m)).toEqual(answers(plain));
  });

  it("takes a new last operand as deciding whenever its chain is left to it", async () => {
    const was = "function f(x) {\n  if (x.a && x.b) return 1;\n  return 0;\n}\nexport { f };\n";
    const now = "function f(x) {\n  if (x.a && x.b && x.c) return 1;\n  return 0;\n}\nexport { f };\n";
    const { text, points } = instrument(now, new Set([2]), was);
    expect(() => parse(text, { ecmaVersion: "latest", sourceType: "module" })).not.toThrow();
    const decides = points.findIndex((p) => p.code === "x.c" && p.why?.startsWith("never seen deciding its `&&`"));
    expect(decides).toBeGreaterThanOrEqual(0);
    const m = await load(text, "f");
    expect(m.fn({ a: 1, b: 1, c: 1 })).toBe(1);
    expect(m.reached().has(decides)).toBe(false);
    expect(m.fn({ a: 1, b: 1, c: 0 })).toBe(0);
    expect(m.reached().has(decides)).toBe(true);
  });

  it("does not run a rest that may change state: its deciding is said unchecked", () => {
    const impure = after.replace("re.test(tool.description)", "tool.seen.push(word)");
    const { text, points } = instrument(impure, new Set([2]), before.replace("re.test(tool.description)", "tool.seen.push(word)"));
    expect(points.find((p) => p.why?.startsWith("never seen deciding"))?.why).toMatch(/not checked: the rest may change state$/);
    expect(text).not.toMatch(/__searchliftDecide\(\d/);
  });

  it("counts `??`'s left as set or null, and never a constant operand", async () => {
    const module = "function pick(x) {\n  return x.a ?? (x.b || 'none');\n}\nexport { pick };\n";
    const { text, points } = instrument(module, new Set([2]));
    expect(points.filter((p) => p.kind === "condition").map((p) => [p.code, p.why])).toEqual([
      ["x.a", "never set (always null or undefined)"],
      ["x.a", "never null or undefined"],
      ["x.b", "never true"],
      ["x.b", "never false"],
    ]);
    const m = await load(text, "pick");
    expect([m.fn({ a: 0 }), m.fn({ b: "" })]).toEqual([0, "none"]);
    const ids = points.flatMap((p, i) => (p.kind === "condition" ? [i] : []));
    expect(ids.map((i) => m.reached().has(i))).toEqual([true, true, false, true]);
  });

  it("counts a predicate callback's return, and the last operand of a chain it returns", () => {
    const module = "function f(xs, w) {\n  return xs.filter((x) => x.a || x.b === w);\n}\nexport { f };\n";
    const codes = instrument(module, new Set([2]))
      .points.filter((p) => p.kind === "condition")
      .map((p) => p.code);
    expect([...new Set(codes)]).toEqual(["x.a", "x.b === w"]);
    // A callback with a body of statements: its returns are the tests, and the module still parses.
    const block = "function f(xs, w) {\n  return xs.some((x) => {\n    let y = x.b;\n    return y === w;\n  });\n}\nexport { f };\n";
    const { text, points } = instrument(block, new Set([2, 3, 4]));
    expect(() => parse(text, { ecmaVersion: "latest", sourceType: "module" })).not.toThrow();
    expect([...new Set(points.filter((p) => p.kind === "condition").map((p) => p.code))]).toEqual(["y === w"]);
  });
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
