import { describe, expect, it } from "vitest";
import { memoryContainer } from "../../test/helpers/memory-container.js";
import { indexPlaces, ModuleScope } from "./module-scope.js";

// The specification of the index: one regular expression per name, as the places were first found.
function escape(name: string): string {
  return name.replace(/[$]/g, "\\$");
}

/** [offset, length] of each place in `text` where a property path of `name` may be assigned (`name.a.b =`). */
function memberPlacesOf(text: string, name: string): Array<[number, number]> {
  const re = new RegExp(`(?<![\\w$.#])${escape(name)}(?:\\.[A-Za-z_$][\\w$]*)+\\s*=(?![=>])`, "g");
  return [...text.matchAll(re)].map((m) => [m.index, m[0].length]);
}

/** [offset, length] of each place in `text` where a declaration of `name` may begin: `function x(`, `class x`, `x=` (not `x==`, `x=>`, `.x=`, `#x=`). */
function declarationPlacesOf(text: string, name: string): Array<[number, number]> {
  const n = escape(name);
  const re = new RegExp(`(?:function\\s*\\*?\\s*${n}\\s*\\(|class\\s+${n}(?![\\w$])|(?<![\\w$.#])${n}\\s*=(?![=>]))`, "g");
  return [...text.matchAll(re)].map((m) => [m.index, m[0].length]);
}

/** Every identifier-like word of a text: the names to ask about. */
const wordsOf = (text: string) => [...new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? [])];

/** The one-pass index must find, for every name, exactly what the per-name expressions find. */
function expectSameAsPerName(text: string) {
  const index = indexPlaces(text);
  for (const name of wordsOf(text)) {
    const perName = declarationPlacesOf(text, name);
    const indexed = index.declarations(name);
    expect(indexed.length, `${name} in ${JSON.stringify(text)}`).toBe(perName.length);
    // The index points at the name itself, inside the place the expression matched.
    indexed.forEach((at, i) => {
      const [start, length] = perName[i]!;
      expect(at >= start && at + name.length <= start + length, `${name}@${at} in ${JSON.stringify(text)}`).toBe(true);
    });
    expect(index.members(name), `${name}. in ${JSON.stringify(text)}`).toEqual(memberPlacesOf(text, name).map(([at]) => at));
  }
}

describe("place index", () => {
  it("finds declarations and member assignments, and skips comparisons, arrows and property writes", () => {
    const text = [
      "var a=1,b =2;function f(x=3){return x==a||x===b||x!=a}",
      "class K extends B{y=1}function*g (){}async function h(){}",
      "o.p=4;q.r.s =5;t . u=6;v=>v;w>=1;z<=2;c+=1;d-=1;e=f=g;",
      "className=1;x.function=2;xclass Q{}",
      "a\u00a0=1;`s=${a}`;/=/;'k=1'",
      "class P{#m=1;#n;set(v){this.#n=v;this.#m.x=2}}",
    ].join("\n");
    const index = indexPlaces(text);
    // Text-level candidates: `s=` in a template and `k=` in a string count too (the parser rules them out later).
    expect(
      wordsOf(text)
        .filter((w) => index.declarations(w).length > 0)
        .sort(),
    ).toEqual(["K", "P", "Q", "a", "b", "className", "e", "f", "g", "h", "k", "s", "u", "x", "y"]);
    // Private names are a class's own: `#m=`, `this.#n=` and `this.#m.x=` are no places of m or n.
    expect([index.declarations("m"), index.declarations("n"), index.members("m")]).toEqual([[], [], []]);
    expect(index.members("o")).toEqual([text.indexOf("o.p=")]);
    expect(index.members("q")).toEqual([text.indexOf("q.r.s")]);
    expect(index.members("t")).toEqual([]);
    // A name that is only a prefix or a suffix of a declared one has no places of its own.
    expect([index.declarations("las"), index.declarations("lassName"), index.declarations("class")]).toEqual([[], [], []]);
    expectSameAsPerName(text);
  });

  it("agrees with the per-name expressions on random minified-looking text", () => {
    const pieces = [
      "a",
      "b",
      "$c",
      "_d",
      "e1",
      ".",
      "=",
      "==",
      "===",
      "=>",
      " ",
      "\n",
      "(",
      ")",
      "{",
      "}",
      ";",
      ",",
      "function",
      "class",
      "*",
      "+",
      "!",
      "<",
      ">",
      "1",
      "x.y",
      "\u00a0",
      "'",
      "`",
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let round = 0; round < 400; round++) {
      let text = "";
      const n = 5 + Math.floor(random() * 40);
      for (let i = 0; i < n; i++) text += pieces[Math.floor(random() * pieces.length)];
      expectSameAsPerName(text);
    }
  });

  it("keeps every place of a long text, in order, past the room the index first makes", () => {
    // Thousands of declaration and member places, some names assigned many times.
    const parts: string[] = [];
    for (let i = 0; i < 1200; i++) parts.push(`n${i}=${i};o${i % 40}.p${i}=1;function f${i % 300}(){}`);
    expectSameAsPerName(parts.join(""));
  });
});

describe("module-level definitions", () => {
  const find = (text: string, name: string) => {
    const c = memoryContainer({ "m.js": text });
    const d = ModuleScope.of(c, c.modules[0]!).definition(name);
    return d && { kind: d.kind, at: d.node.start, type: d.node.type };
  };

  it("takes the top-level declaration, not the same short name assigned inside functions", () => {
    const text = "function a(x){let n;n=x;return n}var b=(n=2)=>n;function n(q){return q}var c=n(1);";
    expect(find(text, "n")).toEqual({ kind: "function", at: text.indexOf("function n"), type: "FunctionDeclaration" });
    const v = "function a(){n=1}var x=1,n=f(),m=2;";
    expect(find(v, "n")).toEqual({ kind: "variable", at: v.indexOf("n=f"), type: "VariableDeclarator" });
  });

  it("takes a lazy-init assignment when nothing declares the name with a value", () => {
    const text = "function a(){n=5}var n,init=L(()=>{n=new Map});function L(f){return f}";
    expect(find(text, "n")).toEqual({ kind: "assigned", at: text.indexOf("n=new"), type: "AssignmentExpression" });
    expect(find("function a(){n=5}", "n")).toBe(null);
  });
});
