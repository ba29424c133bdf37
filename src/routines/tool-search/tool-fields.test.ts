/**
 * The tool fields a lifted closure reads, found by structure: through callbacks, loops, indexes, helpers,
 * function parameters that are called with tools, Maps of tools and call()'s context; and the names that may
 * be passed through.
 */
import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import type { Node } from "../../ast/pattern.js";
import { MAX_TOOL_FIELDS, fieldNameProblem, selectToolFields } from "./tool-field-names.js";
import { toolFieldReads, toolFieldUses } from "./tool-fields.js";

/** The fields read in `code`, whose first statement is the scorer (tool lists at `lists`) and whose function named `call`, if any, is call(). */
function reads(code: string, lists: number[] = [1, 2]): string[] {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module", ranges: true }) as unknown as { body: Node[] };
  const scorer = program.body[0]!;
  const call = program.body.find((s) => s.type === "FunctionDeclaration" && s.id?.name === "call");
  return toolFieldReads(program.body, {
    listParams: lists.map((index) => ({ fn: scorer, index })),
    contextFns: call ? [call] : [],
  });
}

describe("tool fields read", () => {
  it('in a map callback, through ?., ["…"], destructuring and `in`', () => {
    const code = `async function s(q, deferred, all, max) {
      return Promise.all(deferred.map(async (t) => {
        let { title, annotations: a } = t;
        let score = t.title ? 1 : 0;
        if (t?.summary) score++;
        if (t["category"] === q) score++;
        if ("icon" in t) score++;
        return { name: t.name, score };
      }));
    }`;
    expect(reads(code)).toEqual(["annotations", "category", "icon", "name", "summary", "title"]);
  });

  it("through for-of, an index, find, a helper's parameter and what a helper returns", () => {
    const code = `function s(q, deferred, all, max) {
      for (const t of deferred) weigh(t, all);
      for (let i = 0; i < deferred.length; i++) deferred[i].rank;
      const hit = all.find((x) => x.name === q) ?? deferred[0];
      owner(hit, all).owner;
      return [];
    }
    function weigh(tool, tools) { return tool.weight + tools.filter((u) => u.group).length; }
    function owner(tool, tools) { return tools.find((u) => u.name === tool.name) ?? tool; }`;
    expect(reads(code)).toEqual(["group", "name", "owner", "rank", "weight"]);
  });

  it("through a function parameter called with tools, derived lists and a Map of tools", () => {
    const code = `async function s(q, deferred, all, max) {
      const pool = [...deferred, ...all].filter(Boolean).slice(0, 9);
      const byName = new Map(pool.map((t) => [t.name, t]));
      byName.get(q).label;
      const index = new Map();
      for (const t of all) index.set(t.name, t);
      index.get(q).badge;
      return mapWith(pool, async (tool) => tool.title);
    }
    async function mapWith(items, fn) { const out = []; for (const item of items) out.push(await fn(item)); return out; }`;
    expect(reads(code)).toEqual(["badge", "label", "name", "title"]);
  });

  it("not on objects the release makes from a tool, nor on other arrays", () => {
    const code = `function s(q, deferred, all, max) {
      const terms = q.split(" ").map((w) => w.trim());
      return deferred.map((t) => {
        const parsed = parse(t.name);
        const info = t.mcpInfo;
        return { name: t.name, score: parsed.parts.length + terms.filter((w) => w.size).length + (info?.serverName ? 1 : 0) };
      });
    }
    function parse(name) { return { parts: name.split("_"), full: name }; }`;
    expect(reads(code)).toEqual(["mcpInfo", "name"]);
  });

  it("in call(): its context's tools, by destructuring or by member chain", () => {
    const code = `function s(q, deferred, all, max) { return []; }
    async function call(input, { options: { tools } }, outer) {
      const deferred = tools.filter((t) => t.visible);
      outer.options.tools.find((t) => t.pinned);
      return s(input.query, deferred, tools, 5);
    }`;
    expect(reads(code)).toEqual(["pinned", "visible"]);
  });

  it("through a method of a class the scorer calls with a tool", () => {
    const code = `function s(q, deferred, all, max, cache) {
      return deferred.map((t) => ({ name: t.name, score: cache.describe(t, all).length }));
    }
    class Cache { describe(tool, tools) { return tools.filter((u) => u.name === tool.name).map((u) => u.summary); } }`;
    expect(reads(code)).toEqual(["name", "summary"]);
  });
});

describe("bounded work", () => {
  it("an expression that branches at every level is judged in bounded steps", () => {
    // Leaves that are not tools: every branch is looked at, in every round, for every kind (2^17 each).
    const tree = (depth: number): string => (depth === 0 ? "q" : `(q ? ${tree(depth - 1)} : ${tree(depth - 1)})`);
    const code = `function s(q, deferred, all, max) {
      return deferred.map((t) => { let u = ${tree(17)}; let v = ${tree(17)}; return helper(t, u, v).title + t.label; });
    }
    function helper(a, b, c) { return a ?? b ?? c; }`;
    const started = Date.now();
    const fields = reads(code);
    expect(Date.now() - started).toBeLessThan(20_000);
    // What the first rounds found is kept when the bound stops the later ones.
    expect(fields).toContain("label");
  });
});

describe("tool fields passed through", () => {
  it("new fields only, sorted; known ones are not new", () => {
    expect(selectToolFields(["title", "name", "prompt", "description", "annotations", "title", "isMcp"])).toEqual({
      passed: ["annotations", "title"],
      inner: [],
      within: [],
      refused: [],
    });
  });

  it("properties read inside a passed field, for the corpus to give it objects", () => {
    const program = parse(
      `function s(q, deferred, all, max) {
        return deferred.map((t) => ({ name: t.name, score: (t.annotations?.category === q ? 2 : 0) + (t.mcpInfo.toolName ? 1 : 0) + t.meta["x-y"] + t.meta.tier }));
      }`,
      { ecmaVersion: "latest", sourceType: "module", ranges: true },
    ) as unknown as { body: Node[] };
    const uses = toolFieldUses(program.body, { listParams: [{ fn: program.body[0]!, index: 1 }], contextFns: [] });
    expect(uses.names).toEqual(["annotations", "mcpInfo", "meta", "name"]);
    const fields = selectToolFields(uses.names, uses.inner);
    expect(fields.passed).toEqual(["annotations", "meta"]);
    // mcpInfo is the contract's; "x-y" is not a plain name.
    expect(fields.inner).toEqual(["annotations.category", "meta.tier"]);
  });

  it("properties read inside a contract field that it does not name there: on the read, a variable, a parameter, a pattern", () => {
    const program = parse(
      `function s(q, deferred, all, max) {
        return deferred.map((t) => {
          let info = t.mcpInfo ?? parse(t.name);
          let { mcpInfo: { origin } } = t;
          return { name: t.name, score: (t.mcpInfo?.nameKey ? 1 : 0) + (info.serverName === q ? 2 : 0) + (info.label ? 1 : 0) + weigh(t.mcpInfo) + (origin ? 1 : 0) };
        });
      }
      function weigh(m) { return m.rank ?? 0; }
      function parse(name) { return { serverName: name }; }`,
      { ecmaVersion: "latest", sourceType: "module", ranges: true },
    ) as unknown as { body: Node[] };
    const uses = toolFieldUses(program.body, { listParams: [{ fn: program.body[0]!, index: 1 }], contextFns: [] });
    expect(uses.names).toEqual(["mcpInfo", "name"]);
    const fields = selectToolFields(uses.names, uses.inner);
    expect(fields.passed).toEqual([]);
    // serverName is the contract's own; the parsed name's object is not a tool's field.
    expect(fields.within).toEqual(["mcpInfo.label", "mcpInfo.nameKey", "mcpInfo.origin", "mcpInfo.rank"]);
    expect(fields.inner).toEqual([]);
  });

  it("hostile names are refused, with why, and shown cut", () => {
    const long = "a".repeat(10_000);
    const r = selectToolFields([
      "constructor",
      "__proto__",
      "toString",
      "valueOf",
      "hasOwnProperty",
      "prototype",
      long,
      "tïtle",
      "x-y",
      "call",
      "title",
    ]);
    expect(r.passed).toEqual(["title"]);
    expect(r.refused.map((f) => f.name).sort()).toEqual(
      [
        "__proto__",
        "call",
        "constructor",
        "hasOwnProperty",
        "prototype",
        "toString",
        "tïtle",
        "valueOf",
        "x-y",
        `${"a".repeat(40)}… (10000 characters)`,
      ].sort(),
    );
    for (const f of r.refused) expect(f.why.length).toBeGreaterThan(0);
    expect(fieldNameProblem("isPrototypeOf")).toBe("a member of Object.prototype");
    expect(fieldNameProblem("title2")).toBeNull();
  });

  it(`at most ${MAX_TOOL_FIELDS}`, () => {
    const names = Array.from({ length: 20 }, (_, i) => `field${String(i).padStart(2, "0")}`);
    const r = selectToolFields(names);
    expect(r.passed).toHaveLength(MAX_TOOL_FIELDS);
    expect(r.refused.map((f) => f.name)).toEqual(names.slice(MAX_TOOL_FIELDS));
  });
});
