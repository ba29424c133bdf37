import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "acorn";
import { beforeAll, describe, expect, it } from "vitest";
import { lift } from "../api/lift.js";
import { moduleToScript } from "../verify/module-script.js";
import { behaviourVerdict, behaviourView, noDifferenceFound, sandboxScript } from "./behaviour.js";
import { COVERAGE_EXPORT, changedLines, instrument } from "./coverage.js";
import { runCalls, runCallsReaching, type ContractCall } from "./witness-run.js";
import { toolSearchPack } from "../routines/tool-search/index.js";

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
    type Module = { keep: (tool: object, query: string) => unknown; re: RegExp };
    const plain = (await import(`data:text/javascript,${encodeURIComponent(after)}`)) as Module;
    const m = (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as Module;
    const tools = [
      { name: "y", aliases: ["x"], description: "xa" },
      { name: "x", aliases: ["x"], description: "a" },
      { name: "y", aliases: [], description: "ba" },
    ];
    const answers = (mod: Module) => tools.map((t) => [mod.keep(t, "x"), mod.re.lastIndex]);
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
  const points = (text: string) => instrument(text, new Set([line(text)])).points;
  const branches = (text: string) =>
    points(text)
      .filter((p) => p.kind === "branch")
      .map((p) => p.unreachable ?? null);

  it("a constructor option with a falsy default that no `new` passes: the code under it, and its test seen true", () => {
    const why = "reachable only when `this.#useExtra` is true — the tool search never makes Cache with its constructor option useExtra";
    // The `&&`'s right and the `?:`'s consequent; its alternate runs whatever the option.
    expect([...branches(cls("new Cache({})"))].sort()).toEqual([null, why, why].sort());
    const guard = points(cls("new Cache({})")).filter((p) => p.code === "this.#useExtra");
    expect(guard.map((p) => [p.why, p.unreachable ?? null])).toEqual([
      ["never true", why],
      ["never false", null],
    ]);
  });

  it("not when some `new` passes it, when its default is truthy, or when the class is handed on", () => {
    expect(branches(cls("new Cache({}, true)"))).toEqual([null, null, null]);
    expect(branches(cls("new Cache({})", "true"))).toEqual([null, null, null]);
    // Whoever gets the class may make it with the option.
    expect(branches(cls("new Cache({}); keep(Cache)"))).toEqual([null, null, null]);
    // In a static method `this` is the class, not an instance.
    const statics = cls("new Cache({})").replace("nameOf(entry) {", "static nameOf(entry) {");
    expect(branches(statics)).toEqual([null, null, null]);
  });
});

/**
 * A module laid out as a lift lays out the tool search (our own synthetic code): the adapter's toolSearch gives
 * call() its context, `emptyState()` for the parts of the client it does not model and `undefined` for a hook.
 */
const adapted = (
  body: string,
  helpers = "",
  context = "{ tools: deferred, refreshTools: undefined, getAppState: emptyState() }",
) => `async function toolSearch(query, deferred, options = {}) {
  const release = createReleaseSearch();
  const result = await release.call({ query }, { signal: emptyState() }, ${context});
  return result.data.matches;
}
function emptyState() {
  return new Proxy(function () {}, {
    get(target, key) {
      if (key === Symbol.iterator) return function* () {};
      if (key === "then") return undefined;
      if (key === "length" || key === "size") return 0;
      if (["filter", "map", "flatMap", "slice", "concat"].includes(key)) return () => [];
      if (["some", "includes", "has"].includes(key)) return () => false;
      if (["find", "forEach"].includes(key)) return () => undefined;
      if (key === "get") return (k) => (typeof k === "function" ? new k() : undefined);
      return emptyState();
    },
    apply() {
      return emptyState();
    },
  });
}
function createReleaseSearch() {
  async function callToolSearch(input, { signal }, context) {
    let { tools, refreshTools, getAppState } = context;
${body}
${helpers}
  }
  return { call: callToolSearch };
}
export { toolSearch };
`;

describe("points the contract's functions cannot run", () => {
  /** Each point on the lines holding `marks` (all of them): [code, why, unreachable]. */
  const classify = (text: string, ...marks: string[]) => {
    const lines = text.split("\n").flatMap((l, i) => (marks.some((m) => l.includes(m)) ? [i + 1] : []));
    return instrument(text, new Set(lines)).points.map((p) => [p.code, p.why ?? null, p.unreachable ?? null]);
  };
  const hook = "the tool search gives call() `refreshTools` as undefined";
  const state = "the tool search gives call() `getAppState` as the empty state of a client it does not model";

  it("a hook the adapter gives as undefined: its call is never set, the fallback always taken", () => {
    const text = adapted("    let all = refreshTools?.() ?? tools;\n    return { data: { matches: all.map((t) => t.name) } };");
    expect(classify(text, "refreshTools?.()")).toEqual([
      ["let all = refreshTools?.() ?? tools;", null, null],
      ["tools", null, null],
      ["refreshTools?.()", "never set (always null or undefined)", `reachable only when \`refreshTools?.()\` is set — ${hook}`],
      ["refreshTools?.()", "never null or undefined", null],
    ]);
  });

  it("the client's empty state: a helper's callbacks on it never run, and what it returns is decided", () => {
    const text = adapted(
      "    let pending = getNames();\n    let matches = tools.filter((t) => t.name === input.query).map((t) => t.name);\n" +
        "    return result(matches, pending);",
      [
        "  function getNames() {",
        "    let clients = getAppState().mcp.clients.filter((client) => client.type === 'pending');",
        "    return clients.length > 0 ? clients.map((client) => client.name) : undefined;",
        "  }",
        "  function result(matches, pending, failed = []) {",
        "    return { data: { matches, ...(pending && pending.length > 0 && { pending }), ...(failed.length > 0 && { failed }) } };",
        "  }",
      ].join("\n"),
    );
    const got = classify(text, "client.type ===", "clients.length > 0", "pending.length > 0");
    const only = (p: string) => got.filter(([, , u]) => u !== null && (u as string).startsWith(p)).map(([c, w]) => [c, w]);
    expect(only("reachable only when `getAppState().mcp.clients` holds something")).toEqual([
      ["client.type === 'pending'", "never true"],
      ["client.type === 'pending'", "never false"],
    ]);
    expect(only("reachable only when `clients.length > 0` is true")).toEqual([
      ["clients.map((client) => client.name)", null],
      ["clients.length > 0", "never true"],
    ]);
    // The helper's `undefined` reaches `result` from its only caller; `failed` is left to its default `[]`.
    expect(only("reachable only when `pending` is true")).toEqual([
      ["{ pending }", null],
      ["pending.length > 0", null],
      ["pending", "never true"],
      ["pending.length > 0", "never true"],
      ["pending.length > 0", "never false"],
    ]);
    expect(only("reachable only when `failed.length > 0` is true")).toEqual([
      ["{ failed }", null],
      ["failed.length > 0", "never true"],
    ]);
    for (const [, , u] of got)
      if (u !== null) expect(u).toMatch(/ — (the tool search gives call\(\) `getAppState`|`failed` is always an empty array)/);
    // What the tool search does decide stays to be seen: the name test, and the outcomes that happen.
    expect(got.filter(([, w, u]) => u === null && w !== null).map(([c, w]) => [c, w])).toEqual([
      ["clients.length > 0", "never false"],
      ["pending", "never false"],
      ["failed.length > 0", "never false"],
    ]);
    expect(state).toContain("getAppState");
  });

  it("code after a return, and a helper only such code calls", () => {
    const text = adapted(
      "    return { data: { matches: [] } };\n    tools = late(tools);",
      "  function late(xs) {\n    return xs.slice(1);\n  }",
    );
    const got = classify(text, "tools = late", "return xs.slice");
    expect(got).toEqual([
      ["tools = late(tools);", null, "never reachable: it follows a `return` in the same block"],
      ["return xs.slice(1);", null, "reachable only when `late` is called — every call of it is in code that cannot run"],
    ]);
  });

  it("leaves what the contract may reach: a binding written again, an argument that differs, an object handed on, a class the empty state makes", () => {
    const written = adapted(
      "    let xs = getAppState().list.filter(Boolean);\n    xs.push(input.query);\n    if (xs.length > 0) return { data: { matches: xs } };\n    return { data: { matches: [] } };",
    );
    expect(classify(written, "xs.length > 0").every(([, , u]) => u === null)).toBe(true);
    const passed = adapted(
      "    return { data: { matches: pick(tools, []).concat(pick(tools, [input.query])) } };",
      "  function pick(ts, names) {\n    return names.length > 0 ? ts.filter((t) => names.includes(t.name)).map((t) => t.name) : [];\n  }",
    );
    expect(classify(passed, "names.length > 0").every(([, , u]) => u === null)).toBe(true);
    const handed = adapted(
      "    remember(context);\n    if (context.refreshTools) return { data: { matches: [] } };\n    return { data: { matches: tools.map((t) => t.name) } };",
      "  function remember(c) {\n    globalThis.kept = c;\n  }",
    );
    expect(classify(handed, "if (context.refreshTools)").every(([, , u]) => u === null)).toBe(true);
    // A part of the adapter's object that the release writes, through a binding of its own, is not known.
    const nested = (write: string) =>
      adapted(
        `    let { options } = context;\n${write}    let all = options.refresh?.() ?? tools;\n    return { data: { matches: all.map((t) => t.name) } };`,
        "",
        "{ tools: deferred, options: { refresh: undefined } }",
      );
    const said = (text: string) =>
      classify(text, "options.refresh?.()").filter(([, w]) => w === "never set (always null or undefined)")[0]![2];
    expect(said(nested(""))).toBe("reachable only when `options.refresh?.()` is set — the tool search gives call() `refresh` as undefined");
    expect(said(nested("    options.refresh = () => tools;\n"))).toBeNull();
    // The empty state's get(C) makes `new C()`: a function given to it runs.
    const made = adapted("    let made = getAppState().get(function Made() { this.ok = true; });\n    return { data: { matches: [] } };");
    expect(classify(made, "this.ok = true").every(([, , u]) => u === null)).toBe(true);
  });

  /** The points on lines holding `mark` said unreachable, and those a few calls of the instrumented module reach. */
  const probeRun = async (text: string, mark: RegExp, queries: string[]) => {
    const lines = new Set(text.split("\n").flatMap((l, i) => (mark.test(l) ? [i + 1] : [])));
    const { text: probed, points } = instrument(text, lines);
    const m = (await import(`data:text/javascript,${encodeURIComponent(probed)}`)) as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const q of queries) await m.toolSearch!(q, [{ name: "a" }, { name: "b" }]);
    const reached = new Set((m[COVERAGE_EXPORT] as unknown as () => Array<[number, number]>)().map(([i]) => i));
    return { points, said: points.flatMap((p, i) => (p.unreachable ? [i] : [])), reached };
  };

  // Each name of a select list paired with a fresh `[]` (2.1.302's select path): a list gathered from the pairs'
  // second elements is always empty, and so is its copy by a helper that other code calls with a full list.
  const pairs = (extra = "") =>
    adapted(
      "    let names = input.query.split(',').map((n) => n.trim()).filter(Boolean);\n" +
        "    let pairs = names.map((n) => [n, []]);\n" +
        extra +
        "    let waiting = dedupe(pairs.flatMap(([, more]) => more));\n" +
        "    let plain = pairs.flatMap(([n, more]) => (more.length === 0 ? [n] : []));\n" +
        "    let note = notes(waiting);\n" +
        "    if (dedupe(names).length === 0) return { data: { matches: [] } };\n" +
        "    if (waiting.length > 0 && plain.length === 0) return note({ data: { matches: ['waiting'] } });\n" +
        "    return note({ data: { matches: tools.filter((t) => plain.includes(t.name)).map((t) => t.name) } });",
      "  function dedupe(items) {\n    return [...new Set(items)];\n  }\n" +
        "  function notes(list) {\n    return (r) => (list.length === 0 ? r : { ...r, matches: [...r.data.matches, list.join()] });\n  }",
    );
  const said = (text: string, mark: string) => classify(text, mark).filter(([, , u]) => u !== null);

  it("pairs made with a fresh empty array each: what is gathered from their second elements is empty", () => {
    const why = "the `map` callback `(n) => [n, []]` pairs each element with a new empty array, filled nowhere";
    const branch = said(pairs(), "waiting.length > 0");
    // The `if`'s arm and the statement in it, the test never true, and the rest of the `&&` never run.
    expect(branch.map(([c, w]) => [c, w])).toEqual([
      ["return note({ data: { matches: ['waiting'] } });", null],
      ["plain.length === 0", null],
      ["waiting.length > 0", "never true"],
      ["plain.length === 0", "never true"],
      ["plain.length === 0", "never false"],
      ["return note({ data: { matches: ['waiting'] } });", null],
    ]);
    expect(new Set(branch.map(([, , u]) => u))).toEqual(new Set([`reachable only when \`waiting.length > 0\` is true — ${why}`]));
    // The helper that is handed the empty list only reads it: its other arm never runs.
    expect(said(pairs(), "list.length === 0").map(([c, w]) => [c, w])).toEqual([
      ["{ ...r, matches: [...r.data.matches, list.join()] }", null],
      ["list.length === 0", "never false"],
    ]);
    expect(said(pairs(), "more.length === 0").map(([c, w]) => [c, w])).toEqual([
      ["[]", null],
      ["more.length === 0", "never false"],
    ]);
  });

  it("near misses: a pair's array filled, the pairs handed on, the list a helper writes — every point may run", () => {
    const filled = pairs("    pairs.forEach(([n, more]) => { if (n === 'b') more.push(n); });\n");
    const handed = pairs("    globalThis.kept = pairs;\n");
    for (const text of [filled, handed])
      expect(said(text, "waiting.length > 0").concat(said(text, "list.length === 0"), said(text, "more.length === 0"))).toEqual([]);
    const written = pairs().replace("function notes(list) {\n", "function notes(list) {\n    list.push('x');\n");
    expect(said(written, "waiting.length > 0")).toEqual([]);
  });

  it("pairs: no call reaches a point said unreachable; the filled near miss reaches the branch", async () => {
    const mark = /waiting|more\.length|list\.length/;
    const queries = ["a", "select", "a,b", "b", ""];
    const { points, said: dead, reached } = await probeRun(pairs(), mark, queries);
    expect(dead.length).toBeGreaterThanOrEqual(6);
    expect(dead.filter((i) => reached.has(i))).toEqual([]);
    const near = await probeRun(pairs("    pairs.forEach(([n, more]) => { if (n === 'b') more.push(n); });\n"), mark, queries);
    const branch = near.points.findIndex((p) => p.code === "waiting.length > 0" && p.why === "never true");
    expect(near.said).toEqual([]);
    expect(near.reached.has(branch)).toBe(true);
    expect(points.length).toBe(near.points.length);
  });

  // An empty array handed from one binding to another and into a parameter (2.1.116's pending servers).
  const handedOn = (write = "") =>
    adapted(
      "    let pending = getNames();\n    let held = pending;\n" +
        "    return result(tools.filter((t) => t.name === input.query).map((t) => t.name), held);",
      "  function getNames() {\n    return getAppState().mcp.clients.filter((c) => c.type === 'pending').map((c) => c.name);\n  }\n" +
        `  function result(matches, servers) {\n${write}    return { data: { matches: [...matches, ...(servers.length > 0 ? servers : [])] } };\n  }`,
    );

  it("an empty array handed through a binding into a parameter stays empty; pushed to there, it may not", async () => {
    expect(said(handedOn(), "servers.length > 0").map(([c, w]) => [c, w])).toEqual([
      ["servers", null],
      ["servers.length > 0", "never true"],
    ]);
    const near = handedOn("    if (matches.length > 0) servers.push('late');\n");
    expect(said(near, "servers.length > 0")).toEqual([]);
    for (const [text, dead] of [
      [handedOn(), 2],
      [near, 0],
    ] as const) {
      const run = await probeRun(text, /servers\.length > 0/, ["a", "zzz"]);
      expect(run.said).toHaveLength(dead);
      expect(run.said.filter((i) => run.reached.has(i))).toEqual([]);
      // Without the fact, the near miss's `true` is seen: the push makes the list hold something.
      if (dead === 0) expect(run.reached.size).toBe(run.points.length);
    }
  });

  it("a test always undefined never decides its `&&` false with the rest true when the rest reads a property of it", () => {
    const decides = (rest: string) => {
      const text = adapted(
        "    return result(tools.map((t) => t.name));",
        `  function result(matches, pending) {\n    return { data: { matches, ...(pending && ${rest} && { pending }) } };\n  }`,
      );
      const lines = new Set(text.split("\n").flatMap((l, i) => (l.includes("pending &&") ? [i + 1] : [])));
      const points = instrument(text, lines, text.replace(`pending && ${rest}`, rest)).points;
      const point = points.find((p) => p.why?.startsWith("never seen deciding its `&&`"));
      expect(point?.code).toBe("pending");
      return point!.unreachable ?? null;
    };
    expect(decides("pending.length > 0")).toBe(
      "reachable only when `pending.length > 0` is true with `pending` false — `pending` is always undefined " +
        "(no call of `result` passes it), and reading `pending.length` of it throws",
    );
    // Near misses: a rest that reads something else, or reads it with `?.`, can be true with `pending` undefined.
    expect(decides("matches.length > 0")).toBeNull();
    expect(decides("pending?.length === undefined")).toBeNull();
  });

  it("no call of the contract reaches a point said unreachable", async () => {
    const text = adapted(
      "    let all = refreshTools?.() ?? tools;\n    let pending = getAppState().mcp.clients.filter((c) => c.type === 'pending');\n" +
        "    if (pending.length > 0 || input.query === 'all') return { data: { matches: all.map((t) => t.name) } };\n" +
        "    return { data: { matches: all.filter((t) => t.name === input.query).map((t) => t.name) } };",
    );
    const lines = new Set(text.split("\n").flatMap((l, i) => (/refreshTools\?|pending|input\.query/.test(l) ? [i + 1] : [])));
    const { text: probed, points } = instrument(text, lines);
    const said = points.flatMap((p, i) => (p.unreachable ? [i] : []));
    expect(said.length).toBeGreaterThanOrEqual(4);
    const m = (await import(`data:text/javascript,${encodeURIComponent(probed)}`)) as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const tools = [{ name: "a" }, { name: "b" }];
    for (const q of ["a", "all", "zzz", ""]) await m.toolSearch!(q, tools);
    const reached = new Set((m[COVERAGE_EXPORT] as unknown as () => Array<[number, number]>)().map(([i]) => i));
    expect(said.filter((i) => reached.has(i))).toEqual([]);
    // And every other point was reached by these calls: the classification left out nothing the calls see.
    expect(points.flatMap((p, i) => (!p.unreachable && !reached.has(i) ? [p.code + " " + (p.why ?? "")] : []))).toEqual([]);
  });
});

describe("a refactor of a sample release whose new branch the tool search cannot reach", () => {
  it("diff's behaviour view: no witness, every reachable changed point seen, the option's branch named apart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-reach-"));
    const release = readFileSync(new URL("../../samples/releases/0.7.0", import.meta.url), "utf8");
    // The session cache gains a constructor option that would read names from mcpInfo.displayName; the release
    // makes the cache with `new T` alone, so only the option's default ever runs.
    const [cls, parsed] = ["var T=class{#e=new Map;#t=new Map;", "parsedNameOf(t){let r=this.#e.get(t.name);"];
    expect(release).toContain(cls);
    expect(release).toContain(parsed);
    const edited = release
      .replace(cls, `${cls}#o;constructor(o=false){this.#o=o}`)
      .replace(
        parsed,
        `parsedNameOf(t){if(this.#o&&t.mcpInfo?.displayName)return z({name:t.mcpInfo.displayName});let r=this.#e.get(t.name);`,
      );
    writeFileSync(join(dir, "a.js"), release);
    writeFileSync(join(dir, "b.js"), edited);
    const [a, b] = await Promise.all(
      ["a", "b"].map(async (x) =>
        readFileSync((await lift(join(dir, `${x}.js`), { out: join(dir, "out", x), verify: false })).module, "utf8"),
      ),
    );
    const side = (text: string, label: string) => ({ text, script: sandboxScript(text, label), label });
    const view = await behaviourView(side(a!, "a"), side(b!, "b"), { cases: 600 }, toolSearchPack);
    expect(view.behaviour.changed).toEqual([]);
    const c = view.behaviour.coverage!;
    expect(c.after.unreached).toEqual([]);
    expect(c.after.reached).toBeGreaterThan(0);
    const whys = new Set(c.after.unreachable!.map((p) => p.unreachable!.split(" — ")[1]));
    expect([...whys]).toHaveLength(1);
    expect([...whys][0]).toMatch(/^the tool search never makes \w+ with its constructor option \w+$/);
    // The option's test seen false, never true; the return under it never run.
    expect(c.after.unreachable!.map((p) => [p.kind, p.why ?? null])).toEqual(expect.arrayContaining([["condition", "never true"]]));
    expect(c.after.unreachable!.some((p) => p.kind === "statement" && p.code.startsWith("return "))).toBe(true);
    expect(behaviourVerdict(view.behaviour)).toBe("refactor");
    expect(noDifferenceFound(view.behaviour)).toMatch(
      /^A refactor: .*every changed point the tool search can reach was seen.*cannot run in the tool search: /,
    );
  }, 180_000);
});

describe("a refactor of a sample release whose select list is paired with fresh empty arrays", () => {
  const select = 'let p=a.split(",").map(m=>m.trim()).filter(Boolean).slice(0,F);let _=[];';
  /** The sample release's select path made as 2.1.302's: each name paired with a new `[]`, the names with a full one answered apart. */
  const edit = (release: string, fill = "") =>
    release.replace(
      select,
      'let P=a.split(",").map(m=>m.trim()).filter(Boolean).slice(0,F).map(m=>[m,[]]);' +
        fill +
        "let W=[...new Set(P.flatMap(([,m])=>m))];let p=P.flatMap(([m,l])=>l.length===0?[m]:[]);" +
        "if(W.length>0&&p.length===0)return C(W,n,s.length);let _=[];",
    );
  const view = async (fill: string) => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-pairs-"));
    const release = readFileSync(new URL("../../samples/releases/0.7.0", import.meta.url), "utf8");
    expect(release).toContain(select);
    writeFileSync(join(dir, "a.js"), release);
    writeFileSync(join(dir, "b.js"), edit(release, fill));
    const [a, b] = await Promise.all(
      ["a", "b"].map(async (x) =>
        readFileSync((await lift(join(dir, `${x}.js`), { out: join(dir, "out", x), verify: false })).module, "utf8"),
      ),
    );
    const side = (text: string, label: string) => ({ text, script: sandboxScript(text, label), label });
    return (await behaviourView(side(a!, "a"), side(b!, "b"), { cases: 600 }, toolSearchPack)).behaviour;
  };
  const pairsWhy = /pairs each element with a new empty array, filled nowhere$/;

  it("diff's behaviour view: the branch for names paired with something is named apart, the rest seen", async () => {
    const b = await view("");
    expect(b.changed).toEqual([]);
    const c = b.coverage!;
    expect(c.after.unreached).toEqual([]);
    expect(c.after.unreachable!.length).toBeGreaterThan(0);
    for (const p of c.after.unreachable!) expect(p.unreachable!.split(" — ")[1]).toMatch(pairsWhy);
    expect(c.after.unreachable!.some((p) => p.kind === "statement" && p.code.startsWith("return "))).toBe(true);
    expect(behaviourVerdict(b)).toBe("refactor");
  }, 180_000);

  it("near miss: a pair's array filled for one name — nothing is said unreachable for the pairs, not a refactor", async () => {
    const b = await view("P.forEach(([m,l])=>{if(m.length>3)l.push(m)});");
    const c = b.coverage!;
    expect((c.after.unreachable ?? []).filter((p) => pairsWhy.test(p.unreachable!))).toEqual([]);
    expect(behaviourVerdict(b)).not.toBe("refactor");
  }, 180_000);
});
