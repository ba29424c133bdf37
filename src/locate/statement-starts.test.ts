import { describe, expect, it } from "vitest";
import { StatementScanner, statementStarts } from "./statement-starts.js";

/** The text after each proposed start, trimmed, for readable expectations. */
const heads = (src: string) => statementStarts(src).map((s) => src.slice(s).trimStart().slice(0, 8)).filter(Boolean);

describe("statement start scanner", () => {
  it("proposes the position after each top-level ; and }", () => {
    expect(heads("var a=1;function f(){return 2}let b=f();")).toEqual(["var a=1;", "function", "let b=f(", ]);
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

  it("resumes where it stopped", () => {
    const src = "a();b();c();d();";
    const s = new StatementScanner(src);
    s.scanTo(5);
    expect(s.starts).toEqual([0, 4]);
    s.scanTo(src.length);
    expect(s.starts).toEqual([0, 4, 8, 12, 16]);
    expect(s.done).toBe(true);
  });
});
