import { parse } from "acorn";
import { generate } from "astring";
import { describe, expect, it } from "vitest";
import { fieldsOf, isNodeList, type Node } from "../../ast/pattern.js";
import { nameProgram } from "./namer.js";
import { fitName, kindOf, misfit } from "./value-kind.js";

function named(code: string, roles: Record<string, string> = {}): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  const byOffset = new Map<number, string>();
  const visit = (n: Node) => {
    if (!n || typeof n.type !== "string") return;
    if (n.type === "Identifier" && roles[n.name]) byOffset.set(n.start, roles[n.name]!);
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (isNodeList(v)) v.forEach((c) => c && typeof c === "object" && visit(c));
      else if (v && typeof v === "object" && k !== "range") visit(v as Node);
    }
  };
  visit(program);
  nameProgram({ statements: program.body, roles: byOffset, taken: ["root", "capQueryWords"], renamable: (n) => n.startsWith("h_") });
  return program.body.map((s: Node) => generate(s as never)).join("\n");
}

const expr = (code: string) => (parse(code, { ecmaVersion: "latest" }).body[0] as unknown as { expression: Node }).expression;

describe("value kinds", () => {
  it("reads the kind from how the value is made", () => {
    expect(kindOf(expr("q.trim()"))).toBe("string");
    expect(kindOf(expr("`a${b}`"))).toBe("string");
    expect(kindOf(expr("a + 'x'"))).toBe("string");
    expect(kindOf(expr("q.split(/\\s+/)"))).toBe("array");
    expect(kindOf(expr("[a, b]"))).toBe("array");
    expect(kindOf(expr("a.includes(b)"))).toBe("boolean");
    expect(kindOf(expr("!a"))).toBe("boolean");
    expect(kindOf(expr("a.length"))).toBe("number");
    expect(kindOf(expr("a - 1"))).toBe("number");
    expect(kindOf(expr("a + b"))).toBeNull();
    expect(kindOf(expr("f(a)"))).toBeNull();
  });

  it("a head noun that contradicts the kind is a misfit, and is corrected", () => {
    expect(misfit("trimmedWords", "string")).toBe(true);
    expect(fitName("trimmedLowerQueryWords", "string")).toBe("trimmedLowerQuery");
    expect(fitName("trimmedWords", "string")).toBe("trimmedText");
    expect(fitName("filteredName", "array")).toBe("filteredNames");
    expect(fitName("filteredTools", "boolean")).toBe("hasFilteredTools");
    expect(fitName("description", "number")).toBe("descriptionLength");
    // What already fits stays.
    for (const [name, kind] of [
      ["lowerQuery", "string"],
      ["allTools", "array"],
      ["noQuery", "boolean"],
      ["hasTools", "boolean"],
      ["maxWords", "number"],
      ["yieldBudgetMs", "number"],
      ["toolCount", "number"],
    ] as const)
      expect(fitName(name, kind)).toBe(name);
  });

  it("the namer names a trimmed query string as a query, not as words (issue 44)", () => {
    const out = named(
      "function root(q) { let a = capQueryWords(q).toLowerCase().trim(); return a.split(/\\s+/).filter((w) => w.length > 0); }",
      {
        q: "query",
      },
    );
    expect(out).not.toMatch(/trimmedWords|Words =|WordsWord/);
    expect(out).toMatch(/let trimmed\w*Query = /);
  });

  it("a variable given a value of another kind later keeps the name its rule gives", () => {
    const out = named("function root(q) { let a = q.trim(); a = q.split(' '); return a; }", { q: "query" });
    expect(out).toMatch(/let trimmedQuery = /);
  });

  it("a function is not named as a result, a list or a text; a verb phrase or a handler's name fits", () => {
    expect(kindOf(expr("(x) => x"))).toBe("function");
    expect(kindOf(expr("(function () {})"))).toBe("function");
    expect(misfit("otherResult", "function")).toBe(true);
    expect(fitName("otherResult", "function")).toBe("otherHandler");
    expect(fitName("filteredList", "function")).toBe("filteredHandler");
    for (const name of ["getResult", "makeHandler", "onResult", "callback", "alwaysFalse", "isDeferred"])
      expect(misfit(name, "function")).toBe(false);
  });

  it("the namer names a handler a factory makes as a handler, not as its result (2.1.332's call())", () => {
    const out = named(
      "function root(q) { let h_m = (names) => (res) => names.length === 0 ? res : { ...res, names }; let h_o = (u) => (x) => h_m(u)(x); let r = h_o(q); return r(q); }",
      { q: "query" },
    );
    const name = out.match(/let (\w+) = \w+\(query\);/)?.[1];
    expect(name).toBeDefined();
    expect(misfit(name!, "function")).toBe(false);
    // The factory's own result, a call of what it returns, is not a function: its name is not corrected.
    expect(named("function root(q) { let h_m = (n) => [n]; let r = h_m(q); return r; }", { q: "query" })).not.toContain("Handler");
  });

  it("a value used only as a key is a key; the end of a chunk is an end, not a min", () => {
    const cache = named(
      "class C { #d = new Map(); get(n, loaded) { let k = loaded ? `loaded:${n}` : n; let r = this.#d.get(k); if (r) return r; this.#d.set(k, 1); return 1; } }\nfunction root(q) { return new C().get(q, true); }",
      { q: "query" },
    );
    expect(cache).toMatch(/let cacheKey = /);
    // A use that is not a lookup (here, returned) leaves the rules that name it by how it is made.
    expect(named("function root(q, m) { let k = `a:${q}`; m.get(k); return k; }", { q: "query" })).not.toMatch(/let (cacheKey|key) =/);
    const chunks = named(
      "function root(text) { let out = []; for (let o = 0; o < text.length; o += 64) { let m = Math.min(o + 64, text.length); for (let i = o; i < m; i++) out.push(i); } return out; }",
      { text: "text" },
    );
    expect(chunks).toMatch(/let end = Math\.min\(/);
    expect(named("function root(a, b) { let m = Math.min(a, b); return m; }")).not.toMatch(/let end =/);
  });
});
