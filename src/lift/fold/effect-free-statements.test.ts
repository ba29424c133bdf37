import { parse } from "acorn";
import { generate } from "astring";
import { describe, expect, it } from "vitest";
import type { Node } from "../../ast/pattern.js";
import { foldDeadCode } from "./index.js";
import { emptyStateKeys } from "./empty-state-calls.js";
import { adapterKinds, effectFreeStatements } from "./effect-free-statements.js";

/** `src` as a module body folded by effectFreeStatements alone, `used` read from outside, on one line; `context` the adapter's arguments of `call`. */
function folded(src: string, used: string[] = ["f"], context?: string): string {
  const statements = parse(src, { ecmaVersion: "latest", sourceType: "module" }).body as Node[];
  const at = context === undefined ? null : { call: "call", keys: emptyStateKeys(context), context };
  foldDeadCode(statements, used, [], { effectFreeStatements: effectFreeStatements(at) });
  return statements
    .map((s) => generate(s as never))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether the fold dropped the statement `dropped` from `src`. */
const drops = (src: string, dropped: string, used?: string[], context?: string): boolean => {
  expect(src).toContain(dropped);
  const out = folded(src, used, context);
  return !out.includes(dropped);
};

describe("effectFreeStatements", () => {
  it("the length of an array the code makes, compared and thrown away, goes", () => {
    const src = "async function f(q) { let xs = [q].filter(Boolean).map(String); xs.length === 0; return xs; }";
    expect(folded(src)).toBe("async function f(q) { let xs = [q].filter(Boolean).map(String); return xs; }");
  });
  it("an awaited local function whose every return gives an array, its parameters bound to what the call passes", () => {
    const src = [
      "async function search(q, list) { if (q === '') return []; let names = list.slice(0, 3).map((t) => t.name); if (names.length > 0) return names; return [...list].sort(); }",
      "async function f(q) { let matches = await search(q, [q]); matches.length === 0; if (matches.length === 0) return 0; return matches; }",
    ].join("\n");
    expect(drops(src, "matches.length === 0;")).toBe(true);
  });
  it("an awaited Promise.all is an array, unless Promise is a binding of the module's", () => {
    const src = "async function f(q) { let xs = await Promise.all(q.map(async (x) => x)); xs.length === 0; return xs; }";
    expect(drops(src, "xs.length === 0;")).toBe(true);
    expect(drops(`let Promise = { all: (x) => x };\n${src}`, "xs.length === 0;", ["f", "Promise"])).toBe(false);
  });
  it("a comparison of primitives goes", () => {
    expect(drops("function f(q) { let n = 1; 1 === 2; n === 1; return q; }", "1 === 2;")).toBe(true);
  });
  it("keeps a length whose value may be any object: a parameter, a call of something unknown", () => {
    expect(drops("function f(q) { q.length === 0; return q; }", "q.length === 0;")).toBe(false);
    expect(drops("function f(q) { let xs = q.filter(Boolean); xs.length === 0; return xs; }", "xs.length === 0;")).toBe(false);
    // The same function called elsewhere with an unknown list: this call passes an array, another may not.
    const src = [
      "function search(list) { return list.map(String); }",
      "function f(q) { let xs = search(q); xs.length === 0; let ys = search([q]); ys.length === 0; return [xs, ys]; }",
    ].join("\n");
    expect(folded(src)).toContain("xs.length === 0;");
    expect(folded(src)).not.toContain("ys.length === 0;");
  });
  it("keeps a length when a way out of the function gives something else, or nothing", () => {
    const fallsOff = "function search(q) { if (q) return [q]; }\nfunction f(q) { let xs = search(q); xs.length === 0; return xs; }";
    expect(drops(fallsOff, "xs.length === 0;")).toBe(false);
    const other = "function search(q) { if (q) return q; return []; }\nfunction f(q) { let xs = search(q); xs.length === 0; return xs; }";
    expect(drops(other, "xs.length === 0;")).toBe(false);
    // An async function's call is a promise, not what it returns.
    const unawaited = "async function search(q) { return [q]; }\nfunction f(q) { let xs = search(q); xs.length === 0; return xs; }";
    expect(drops(unawaited, "xs.length === 0;")).toBe(false);
  });
  it("keeps a length of a binding written again, of a var, or read before its declaration has run", () => {
    expect(drops("function f(q) { let xs = []; xs = q; xs.length === 0; return xs; }", "xs.length === 0;")).toBe(false);
    expect(drops("function f(q) { var xs = []; xs.length === 0; return xs; }", "xs.length === 0;")).toBe(false);
    expect(drops("function f(q) { if (q) { xs.length === 0; } let xs = [q]; return xs; }", "xs.length === 0;")).toBe(false);
  });
  it("leaves a module alone that writes a constructor property (an array's map would make something else)", () => {
    const src = "function f(q) { let xs = [q]; xs.constructor = q; let ys = xs.map(String); ys.length === 0; return ys; }";
    expect(drops(src, "ys.length === 0;")).toBe(false);
    expect(drops(src.replace("xs.constructor = q; ", "xs[q - 1] = q; "), "ys.length === 0;")).toBe(true);
  });
  describe("the parts of call()'s context the adapter fills", () => {
    const context = '{ signal: emptyState() }, { "tools": allTools, "refresh": undefined, "room": emptyState() }';
    const call = [
      "async function call(input, { signal }, context) {",
      "  let { tools, refresh, room } = context;",
      "  let later = refresh && input ? () => refresh() : refresh;",
      "  let all = later?.() ?? tools;",
      "  let deferred = all.filter((t) => t.deferred);",
      "  deferred.length === 0;",
      "  room.length === 0;",
      "  return deferred;",
      "}",
    ].join("\n");
    it("reads which keys hold the adapter's list of tools and which undefined", () => {
      expect(adapterKinds(context).map((m) => Object.fromEntries(m))).toEqual([{}, { tools: "array", refresh: "undefined" }]);
    });
    it("the adapter's list, through an optional call of what it leaves undefined, is an array; the empty state is not", () => {
      const out = folded(call, ["call"], context);
      expect(out).not.toContain("deferred.length === 0;");
      expect(out).toContain("room.length === 0;");
    });
    it("not without the adapter's arguments, nor where the release's code calls call() as well", () => {
      expect(folded(call, ["call"])).toContain("deferred.length === 0;");
      expect(folded(`${call}\nfunction f(q) { return call(q, {}, { tools: q }); }`, ["call", "f"], context)).toContain(
        "deferred.length === 0;",
      );
    });
    it("through the adapter's nested object literals, destructured by call()'s parameter itself", () => {
      const nested = "{ options: { tools: allTools, refresh: undefined, clients: emptyState() }, abort: emptyState() }";
      const src = [
        "async function call(input, { options: { tools, refresh, clients }, abort }) {",
        "  let all = refresh?.() ?? tools;",
        "  let deferred = all.filter((t) => t.deferred);",
        "  deferred.length === 0;",
        "  clients.length === 0;",
        "  return deferred;",
        "}",
      ].join("\n");
      const shape = adapterKinds(nested)[0]!;
      expect(Object.fromEntries((shape.get("options") as Map<string, unknown>).entries())).toEqual({
        tools: "array",
        refresh: "undefined",
      });
      const out = folded(src, ["call"], nested);
      expect(out).not.toContain("deferred.length === 0;");
      expect(out).toContain("clients.length === 0;");
      // A default in the pattern could run code of the release's before the read: nothing is known then.
      expect(folded(src.replace("abort }", "abort = input.run() }"), ["call"], nested)).toContain("deferred.length === 0;");
    });
    it("not when call() does something before it destructures its context", () => {
      const late = call.replace("  let { tools", "  input.run(context);\n  let { tools");
      expect(folded(late, ["call"], context)).toContain("deferred.length === 0;");
    });
  });
  describe("a string method's new value thrown away", () => {
    const context = '{ signal: emptyState() }, { "tools": allTools }';
    const helpers = [
      "function identity(input) { return input; }",
      "function cut(text, limit) { if (limit <= 0) return ''; if (text.length <= limit) return text; return copy(text.slice(0, limit)); }",
      "function copy(text) { let parts = []; for (let i = 0; i < text.length; i += 4) parts.push(text.slice(i, i + 4)); return parts.join(''); }",
      "function capQuery(query) { let cut1 = cut(query, 50); return /^select:/.test(cut1) ? cut1 : cut1.trim().split(/\\s+/).slice(0, 9).join(' '); }",
    ].join("\n");
    const call = (body: string, params = "input, { signal }, context") =>
      `${helpers}\nasync function call(${params}) {\n  let query = capQuery(input.query);\n  ${body}\n  return query;\n}`;
    const dropped = "query.replace(/mcp__[a-z0-9._-]+/gi, identity);";
    it("goes on the contract's query, through the functions that cut it (a string, join, slice, trim)", () => {
      expect(drops(call(dropped), dropped, ["call"], context)).toBe(true);
      expect(
        drops(call("query.trim(); query.slice(0, -1); query.split(','); query.toLowerCase();"), "query.trim();", ["call"], context),
      ).toBe(true);
      expect(folded(call("query.trim(); query.slice(0, -1); query.split(','); query.toLowerCase();"), ["call"], context)).not.toMatch(
        /query\.(trim|slice|split|toLowerCase)\(/,
      );
      // Destructured from the input in call()'s parameters, and replaced with an inline function or a string.
      const destructured = `${helpers}\nasync function call({ query }, { signal }, context) {\n  query.replace("mcp__", (m) => m);\n  query.replace(/x/g, "$1");\n  return query;\n}`;
      expect(folded(destructured, ["call"], context)).not.toContain("query.replace");
    });
    it("stays where the query may be any object: without the adapter, or a parameter of a function called with anything", () => {
      expect(drops(call(dropped), dropped, ["call"])).toBe(false);
      const other = `${helpers}\nfunction f(q) { q.replace(/x/g, identity); return q; }`;
      expect(drops(other, "q.replace(/x/g, identity);", ["f"], context)).toBe(false);
      // A local function whose every return is a string, but whose parameter was called with an unknown value.
      const returned = `${helpers}\nfunction f(q) { let s = cut(q, 3); s.replace(/x/g, identity); return s; }`;
      expect(drops(returned, "s.replace(/x/g, identity);", ["f"], context)).toBe(false);
      // Here the value is a string whatever q is: a template, a concatenation, a join, String().
      const made = `${helpers}\nfunction f(q) { let s = \`\${q}\` + q; let t = [q].join(); let u = String(q); s.trim(); t.trim(); u.trim(); return [s, t, u]; }`;
      expect(folded(made, ["f"], context)).not.toMatch(/\b[stu]\.trim\(\);/);
    });
    it("stays when the input is handed on or written, so its query may be something else", () => {
      expect(drops(call(dropped).replace("let query", "input.query = signal;\n  let query"), dropped, ["call"], context)).toBe(false);
      expect(drops(call(dropped).replace("let query", "signal(input);\n  let query"), dropped, ["call"], context)).toBe(false);
    });
    it("stays when the replacer does something: pushes to an array, calls something, returns a later parameter", () => {
      for (const replacer of [
        "(m) => seen.push(m)",
        "(m) => { seen.push(m); return m; }",
        "(m) => signal(m)",
        "(m, a, b, c, groups) => groups",
      ]) {
        const statement = `query.replace(/mcp__/g, ${replacer});`;
        // (printed again, the replacer's text may differ: the call itself must be there)
        expect(folded(call(`let seen = [];\n  ${statement}`), ["call"], context)).toContain("query.replace(/mcp__/g, ");
      }
    });
    describe("a replacer that quietly makes a string through the module's helpers", () => {
      // A prefix's middle part passed through a mapper, as a release renames a server in a tool's name.
      const mapper = [
        'let prefix = "tool__";',
        "function keep(part) { return part; }",
        "function renameMiddle(text, rename) {",
        "  if (!text.startsWith(prefix)) return text;",
        "  let rest = text.slice(prefix.length);",
        '  let cut = rest.indexOf("--");',
        "  let middle = cut === -1 ? rest : rest.substring(0, cut);",
        '  return `${prefix}${rename(middle)}${cut === -1 ? "" : rest.slice(cut).replace(/-+/g, keep).toLowerCase()}`;',
        "}",
        "function canonical(text) { return renameMiddle(text, keep); }",
      ].join("\n");
      const statement = "query.replace(/tool__[a-z-]+/gi, canonical);";
      const src = (helpers = mapper) => `${helpers}\n${call(statement)}`;
      it("goes: only string methods, comparisons, a conditional and a template over the match and a module constant", () => {
        expect(drops(src(), statement, ["call"], context)).toBe(true);
      });
      it("stays when the helper pushes to an array, calls an unknown function or reads a property of a non-string", () => {
        const pushes = mapper.replace("  let rest", "  seen.push(text);\n  let rest").replace("let prefix", "let seen = [];\nlet prefix");
        expect(drops(src(pushes), statement, ["call"], context)).toBe(false);
        expect(drops(src(mapper.replace("rename(middle)", "lookup(middle)")), statement, ["call"], context)).toBe(false);
        const table = mapper.replace("let prefix", "let table = { tool: 1 };\nlet prefix").replace("${prefix}${", "${table.tool}${");
        expect(drops(src(table), statement, ["call"], context)).toBe(false);
        // A string's method that gives no known primitive, and a replacer whose result is a number.
        expect(drops(src(mapper.replace("rest.slice(cut)", "rest.split(cut)")), statement, ["call"], context)).toBe(false);
        // A replacer's own replace with a shared regular expression (its lastIndex is state).
        const shared = mapper
          .replace("let prefix", "let dashes = /-+/g;\nlet prefix")
          .replace("replace(/-+/g, keep)", "replace(dashes, keep)");
        expect(drops(src(shared), statement, ["call"], context)).toBe(false);
        const number = mapper.replace("return renameMiddle(text, keep);", 'return text.indexOf("-");');
        expect(drops(src(number), statement, ["call"], context)).toBe(false);
      });
      it("stays when the module constant or a helper is written again", () => {
        const constant = `${mapper}\nfunction reset() { prefix = {}; }`;
        expect(drops(`${constant}\n${call(statement)}`, statement, ["call", "reset"], context)).toBe(false);
        const helper = `${mapper}\nfunction swap(f) { renameMiddle = f; }`;
        expect(drops(`${helper}\n${call(statement)}`, statement, ["call", "swap"], context)).toBe(false);
      });
      it("stays where the module constant may not hold its value yet: a function the module's body calls", () => {
        const early = `${mapper.replace("let prefix", "early();\nlet prefix")}\nfunction early() { let s = String(prefix); ${statement.replace("query", "s")} return s; }`;
        expect(drops(`${early}\n${call(statement)}`, "s.replace", ["call"], context)).toBe(false);
        // The same function, reached only through the names the module hands out, runs after the constant is set.
        const late = early.replace("early();\n", "");
        expect(drops(`${late}\n${call(statement)}`, "s.replace", ["call", "early"], context)).toBe(true);
      });
      it("stays when the helpers call each other past the depth bound, or forever", () => {
        const chain = (n: number) =>
          Array.from({ length: n }, (_, i) => `function step${i}(text) { return ${i + 1 < n ? `step${i + 1}(text)` : "text"}; }`).join(
            "\n",
          );
        const through = (n: number) => `${chain(n)}\n${call("query.replace(/x/g, step0);")}`;
        expect(drops(through(3), "query.replace(/x/g, step0);", ["call"], context)).toBe(true);
        expect(drops(through(8), "query.replace(/x/g, step0);", ["call"], context)).toBe(false);
        const forever = `function spin(text) { return spin(text); }\n${call("query.replace(/x/g, spin);")}`;
        expect(drops(forever, "query.replace(/x/g, spin);", ["call"], context)).toBe(false);
      });
    });
    it("stays with a shared regular expression (its lastIndex is state), or arguments that may be objects or throw", () => {
      const shared = "let pattern = /mcp__/g;\n  query.replace(pattern, identity);";
      expect(drops(call(shared), "query.replace(pattern, identity);", ["call"], context)).toBe(false);
      // replaceAll throws on a regular expression without the g flag; includes on any regular expression.
      expect(drops(call("query.replaceAll(/x/, identity);"), "query.replaceAll(/x/, identity);", ["call"], context)).toBe(false);
      expect(drops(call("query.replaceAll(/x/g, identity);"), "query.replaceAll(/x/g, identity);", ["call"], context)).toBe(true);
      expect(drops(call("query.includes(/x/);"), "query.includes(/x/);", ["call"], context)).toBe(false);
      expect(drops(call("query.slice(signal);"), "query.slice(signal);", ["call"], context)).toBe(false);
      expect(drops(call("query.slice(1n);"), "query.slice(1n);", ["call"], context)).toBe(false);
      // A method that is not a string's own new value (a call of something the module may have put there).
      expect(drops(call("query.run(1);"), "query.run(1);", ["call"], context)).toBe(false);
      // A module that writes a prototype could have made replace anything.
      const patched = call(dropped).replace("let query", "String.prototype.replace = signal;\n  let query");
      expect(drops(patched, dropped, ["call"], context)).toBe(false);
    });
  });
});
