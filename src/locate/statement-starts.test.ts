import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tokenizer, tokTypes as tt } from "acorn";
import { describe, expect, it } from "vitest";
import { StatementScanner, statementStarts } from "./statement-starts.js";

/** Each identifier's position and whether it lies outside every bracket, by acorn's tokenizer. */
function identifierDepths(src: string): Array<[number, boolean]> {
  const out: Array<[number, boolean]> = [];
  let depth = 0;
  for (const t of tokenizer(src, { ecmaVersion: "latest", sourceType: "module" })) {
    if (t.type === tt.name) out.push([t.start, depth === 0]);
    if (t.type === tt.parenL || t.type === tt.bracketL || t.type === tt.braceL || t.type === tt.dollarBraceL) depth++;
    if (t.type === tt.parenR || t.type === tt.bracketR || t.type === tt.braceR) depth--;
  }
  return out;
}

/** The text after each proposed start, trimmed, for readable expectations. */
const heads = (src: string) =>
  statementStarts(src)
    .map((s) => src.slice(s).trimStart().slice(0, 8))
    .filter(Boolean);

describe("statement start scanner", () => {
  it("proposes the position after each top-level ; and }", () => {
    expect(heads("var a=1;function f(){return 2}let b=f();")).toEqual(["var a=1;", "function", "let b=f("]);
  });

  it("ignores ; and braces inside strings, comments, regexes and templates", () => {
    const src = 'var s="a;}";/* ; } */var r=/[;}]{2}/g;var t=`x;${ {a:1}.a };y`;// ;}\nvar z=1;';
    expect(heads(src)).toEqual(['var s="a', "/* ; } *", "var t=`x", "// ;}\nva"]);
  });

  it("tells division from a regex literal by what comes before the slash", () => {
    // a/b/c is two divisions; after `return` a slash starts a regex holding a `;`.
    const src = "var q=a/b/c;function g(){return /;/.test(x)}var w=1;";
    expect(heads(src)).toEqual(["var q=a/", "function", "var w=1;"]);
  });

  it("takes a slash after a variable named of for a division", () => {
    // 2.1.312 has `${of/1000}` in a template; read as a regex, the rest of the chunk lost its statements.
    expect(heads("var of=2;var a=`x${of/1000}y`;var b=1;")).toEqual(["var of=2", "var a=`x", "var b=1;"]);
  });

  it("resumes where it stopped", () => {
    const src = "a();b();c();d();";
    const s = new StatementScanner(src);
    s.scanTo(5);
    expect(s.starts).toEqual([0, 4]);
    s.scanTo(src.length);
    expect(s.starts).toEqual([0, 4, 8, 12, 16]);
    expect(s.done).toBe(true);
  });

  it("knows which positions lie outside every bracket, as acorn's tokens say", () => {
    const tricky = "var a=1,b=f(c,{d:e}),g=/[(]{1}/.test(h);function i(j){k=j}l=`m${n+`o${p}`}q${{r:s}}`;t=u[v]";
    const dir = join(import.meta.dirname, "../../samples/tool-search");
    const sources = [
      tricky,
      ...readdirSync(dir)
        .filter((f) => f.endsWith(".js"))
        .map((f) => readFileSync(join(dir, f), "utf8")),
    ];
    for (const src of sources) {
      const scanner = new StatementScanner(src);
      const got = identifierDepths(src).map(([at]) => [at, scanner.atTopLevel(at)]);
      expect(got).toEqual(identifierDepths(src));
    }
  });
});
