import { parse } from "acorn";
import { generate } from "astring";
import { describe, expect, it } from "vitest";
import type { FunctionNode } from "../../ast/pattern.js";
import { foldUndefinedLocals } from "./fold-undefined.js";

function folded(src: string): string {
  const program = parse(src, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  const fn = program.body[0] as FunctionNode;
  foldUndefinedLocals(fn);
  return generate(fn).replace(/\s+/g, " ").trim();
}

describe("foldUndefinedLocals", () => {
  it("a local that is always undefined makes the code guarded by it dead", () => {
    const out = folded(
      "function f(a) { let s = void 0, held = s !== void 0 && flag() ? s.held : void 0; if (held !== void 0) host(held); return held?.has(a) === true || a; }",
    );
    expect(out).not.toContain("host");
    expect(out).not.toContain("flag");
    expect(out).toContain("return a;");
  });

  it("a loop variable is written on every turn: never folded", () => {
    const out = folded("function f(xs) { let r = []; for (let x of xs) r.push(g(x)); return r; }");
    expect(out).toContain("g(x)");
  });

  it("a local assigned later is not folded", () => {
    const out = folded("function f() { let c; if (ok()) c = 1; return c === void 0 ? 0 : c; }");
    expect(out).toContain("c === void 0");
  });

  it("a parameter every call leaves undefined is undefined inside", () => {
    const out = folded("function f(t) { let has = (x, held) => held !== void 0 && host(x, held); return has(t, void 0) || has(t); }");
    expect(out).not.toContain("host");
  });

  it("the same name in two functions is two locals", () => {
    const out = folded(
      "function f() { let a = () => { let c = void 0; return c; }; let b = () => { let c = 2; return c; }; return [a(), b()]; }",
    );
    expect(out).toContain("let c = 2; return c;");
    expect(out).toContain("return void 0;");
  });
});
