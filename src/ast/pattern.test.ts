import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import { compilePattern, findAll, memberName, someNode, walkValues, type Node, type NodeOf } from "./pattern.js";

const code = (s: string) => parse(s, { ecmaVersion: "latest", sourceType: "module" });
/** A bound node by its name where it has one (an identifier), else by its type. */
const label = (n: Node) => ("name" in n ? n.name : n.type);
const names = (b: Map<string, Node | Node[]>) =>
  Object.fromEntries([...b].map(([k, v]) => [k, Array.isArray(v) ? v.map(label) : label(v)]));

describe("structural patterns", () => {
  it("binds metavariables and requires the same name to be the same code", () => {
    const p = compilePattern("$A.filter(($T) => $T.isMcp)");
    expect(findAll(code("let z = q.filter((x) => x.isMcp);"), p).map((m) => names(m.bindings))).toEqual([{ A: "q", T: "x" }]);
    expect(findAll(code("let z = q.filter((x) => y.isMcp);"), p)).toHaveLength(0);
  });

  it("matches regex literals by pattern and flags, numbers by value, through minified spellings", () => {
    const p = compilePattern("$Q.match(/^select:(.+)$/i)");
    expect(findAll(code("let m = B.match(/^select:(.+)$/i);"), p)).toHaveLength(1);
    expect(findAll(code("let m = B.match(/^select:(.+)$/);"), p)).toHaveLength(0);
    expect(findAll(code("x = 10.0; y = 0xa; z = 5;"), compilePattern("$S = 10"))).toHaveLength(2);
    expect(findAll(code("f(!0, void 0)"), compilePattern("f(true, undefined)"))).toHaveLength(1);
    expect(findAll(code('o["isMcp"]'), compilePattern("$O.isMcp"))).toHaveLength(1);
  });

  it("$$$ runs match any number of list elements, and bound runs must repeat exactly", () => {
    const p = compilePattern("function $F($$$P) { $$$; return $R; }");
    const got = findAll(code("function a(b, c) { let d = b + c; d++; return d; } function e() { return 1 }"), p);
    expect(got.map((m) => names(m.bindings))).toEqual([
      { F: "a", P: ["b", "c"], R: "d" },
      { F: "e", P: [], R: "Literal" },
    ]);
    const same = compilePattern("[$$$X, 0, $$$X]");
    expect(findAll(code("[1, 2, 0, 1, 2]"), same)).toHaveLength(1);
    expect(findAll(code("[1, 2, 0, 2, 1]"), same)).toHaveLength(0);
  });

  it("$_ matches anything without binding; a plain identifier must match by name", () => {
    expect(findAll(code("o.name.toLowerCase()"), compilePattern("$_.name.toLowerCase()"))).toHaveLength(1);
    expect(findAll(code("o.title.toLowerCase()"), compilePattern("$_.name.toLowerCase()"))).toHaveLength(0);
    expect(findAll(code("undefinedx"), compilePattern("undefined"))).toHaveLength(0);
  });

  it("object patterns with $$$ match properties in any surrounding", () => {
    const p = compilePattern("({ name: $N, $$$REST })");
    const got = findAll(code('x = { a: 1, name: "ToolSearch", b: 2 }'), p);
    expect(got).toHaveLength(0); // order matters: name must come first
    const q = compilePattern("({ $$$A, name: $N, $$$B })");
    expect(findAll(code('x = { a: 1, name: "ToolSearch", b: 2 }'), q)).toHaveLength(1);
  });
});

describe("pattern shorthands", () => {
  it("a single-declarator let matches that declarator inside any declaration list", () => {
    const p = compilePattern("let $T = $Q.toLowerCase().split(/\\s+/)");
    const got = findAll(code("var a = 1, b = q.toLowerCase().split(/\\s+/), c;"), p);
    expect(got.map((m) => names(m.bindings))).toEqual([{ T: "b", Q: "q" }]);
  });

  it("@property matches one method of an object literal", () => {
    const p = compilePattern("@property async call($I, $$$) { $$$ }");
    const got = findAll(code("x = { name: 'a', async call(inp, ctx) { return inp }, async other(y) {} }"), p);
    expect(got.map((m) => names(m.bindings))).toEqual([{ I: "inp" }]);
    expect(findAll(code("x = { call(inp) {} }"), p)).toHaveLength(0); // not async
  });
});

describe("declaration kinds", () => {
  it("let, const and var match each other", () => {
    const p = compilePattern("for (let $T of $TERMS) { $$$ }");
    expect(findAll(code("for (const t of ts) { f(t) }"), p)).toHaveLength(1);
    expect(findAll(code("for (var t of ts) { f(t) }"), p)).toHaveLength(1);
  });
});

describe("memberName", () => {
  it("is the name after a dot, and nothing for a computed key or a private name", () => {
    const member = (src: string) =>
      (code(`class C { #p; m(a) { return ${src}; } }`).body[0] as NodeOf<"ClassDeclaration">).body.body[1] as NodeOf<"MethodDefinition">;
    const returned = (src: string) => {
      const ret = member(src).value.body.body[0] as NodeOf<"ReturnStatement">;
      const e = ret.argument!;
      return memberName((e.type === "ChainExpression" ? e.expression : e) as NodeOf<"MemberExpression">);
    };
    expect(returned("a.name")).toBe("name");
    expect(returned("a?.length")).toBe("length");
    expect(returned("a[name]")).toBeUndefined();
    expect(returned('a["name"]')).toBeUndefined();
    expect(returned("this.#p")).toBeUndefined();
  });
});

describe("walkValues", () => {
  it("visits what holds a value, not the names of properties", () => {
    const names: string[] = [];
    walkValues(code("f(a.b, o[c], { d: e, [g]: h, i })"), (n) => void (n.type === "Identifier" && names.push(n.name)));
    expect(names).toEqual(["f", "a", "o", "c", "e", "g", "h", "i"]);
  });
});

describe("someNode", () => {
  it("finds a node at any depth, and asks about no node after the first that passes", () => {
    const asked: string[] = [];
    const found = someNode(code("f(a, () => g(b), c)"), (n) => {
      if (n.type === "Identifier") asked.push(n.name);
      return n.type === "Identifier" && n.name === "b";
    });
    expect(found).toBe(true);
    expect(asked).toEqual(["f", "a", "g", "b"]);
  });
  it("is false when no node passes", () => {
    expect(someNode(code("f(a, b)") as unknown as Node, (n) => n.type === "Literal")).toBe(false);
  });
});
