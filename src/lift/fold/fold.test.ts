import { parse, type FunctionDeclaration, type Statement } from "acorn";
import { generate } from "astring";
import { describe, expect, it } from "vitest";
import type { Node } from "../../ast/pattern.js";
import { awaitConstants } from "./await-constants.js";
import { constantBindings } from "./constant-bindings.js";
import { constantConditions } from "./constant-conditions.js";
import { copyBindings } from "./copy-bindings.js";
import { emptyStatements } from "./empty-statements.js";
import { equalBranches } from "./equal-branches.js";
import { freshArrayLength } from "./fresh-array-length.js";
import { sequenceStatements } from "./sequence-statements.js";
import { stackTraceHooks } from "./stack-trace-hooks.js";
import { DEAD_CODE_FOLDS, FOLDS, foldDeadCode, foldFunction, passesOf } from "./index.js";
import { variablesOf, type Fold } from "./tree.js";
import { constantCalls } from "./constant-calls.js";
import { identityCalls } from "./identity-calls.js";
import { forwardingCalls } from "./forwarding-calls.js";
import { minifiedBooleans } from "./minified-booleans.js";
import { unusedBindings } from "./unused-bindings.js";
import { unusedFunctions } from "./unused-functions.js";
import { unusedParameters } from "./unused-parameters.js";
import { duplicateFunctions } from "./duplicate-functions.js";

const flat = (n: Node) => generate(n).replace(/\s+/g, " ").trim();

/** `src` is the body of an async function f; returns f folded by `folds` (all of them by default), on one line. */
function folded(src: string, folds?: Record<string, Fold>): string {
  const program = parse(`async function f(a, b) { ${src} }`, { ecmaVersion: "latest", sourceType: "module" });
  const fn = program.body[0] as FunctionDeclaration;
  foldFunction(fn, folds);
  return flat(fn.body)
    .replace(/^\{\s*/, "")
    .replace(/\s*\}$/, "");
}

describe("equalBranches", () => {
  const only = { equalBranches };
  it("a pure test between equal branches goes", () => {
    expect(folded("return a ? b : b;", only)).toBe("return b;");
  });
  it("a test with an effect stays, before the value", () => {
    expect(folded("return g() ? b : b;", only)).toBe("return (g(), b);");
    expect(folded("if (g()) h(); else h();", only)).toBe("{ g(); h(); }");
  });
  it("different branches stay", () => {
    expect(folded("return a ? b : a;", only)).toBe("return a ? b : a;");
  });
});

describe("stackTraceHooks", () => {
  const only = { stackTraceHooks };
  it("a stack hook just before the throw of its error goes, called optionally or not", () => {
    expect(folded("let e = TypeError('none'); throw (Error.captureStackTrace?.(e, f), e);", only)).toBe(
      "let e = TypeError('none'); throw e;",
    );
    expect(folded("let e = Error('x'); Error.captureStackTrace(e, f); throw e;", only)).toBe("let e = Error('x'); throw e;");
  });
  it("its arguments' effects stay", () => {
    expect(folded("throw (Error.captureStackTrace?.(a, h()), a);", only)).toBe("throw (h(), a);");
    expect(folded("Error.captureStackTrace(a, h()); throw a;", only)).toBe("h(); throw a;");
  });
  it("a hook whose stack is read, whose value is used, on another error, or of a module's own Error stays", () => {
    for (const kept of [
      "Error.captureStackTrace(a); return a.stack;",
      "return Error.captureStackTrace(a, f);",
      "Error.captureStackTrace(a, f); throw b;",
      "throw (Error.captureStackTrace(a, f), b);",
      "let Error = a; Error.captureStackTrace(b, f); throw b;",
    ])
      expect(folded(kept, only)).toBe(folded(kept, {}));
  });
  it("with the other folds, the throw that is left reads plainly", () => {
    expect(
      folded("let m = a.get(b); if (m === void 0) { let e = TypeError('none'); throw (Error.captureStackTrace?.(e, f), e); } return m;"),
    ).toBe("let m = a.get(b); if (m === undefined) { let e = TypeError('none'); throw e; } return m;");
  });
});

describe("constantBindings", () => {
  const only = { constantBindings };
  it("a null never reassigned is read as null", () => {
    expect(folded("let s = null; if (s && a.length > 0) g(s);", only)).toBe("let s = null; if (null && a.length > 0) g(null);");
  });
  it("a value left after the effects of a folded call is constant too", () => {
    expect(folded("let s = (g(), void 0); return s === void 0;", only)).toBe("let s = (g(), void 0); return void 0 === void 0;");
  });
  it("a reassigned binding is not constant", () => {
    expect(folded("let s = null; if (a) s = a; return s;", only)).toBe("let s = null; if (a) s = a; return s;");
  });
  it("an empty array read only for its length has length 0; one that is pushed to does not", () => {
    expect(folded("let xs = []; if (xs.length > 0) g();", only)).toBe("let xs = []; if (0 > 0) g();");
    expect(folded("let xs = []; xs.push(a); if (xs.length > 0) g();", only)).toBe("let xs = []; xs.push(a); if (xs.length > 0) g();");
  });
  it("numbers and strings keep their names", () => {
    expect(folded("let n = 5; return n;", only)).toBe("let n = 5; return n;");
  });
  it("a loop variable is written on every turn", () => {
    expect(folded("for (let x of a) g(x);", only)).toBe("for (let x of a) g(x);");
  });
});

describe("constantConditions", () => {
  const only = { constantConditions };
  it("constant tests pick their branch", () => {
    expect(folded("if (null && g()) h(); return false ? a : b;", only)).toBe("return b;");
    expect(folded("if (!void 0) h(); else k();", only)).toBe("h();");
    expect(folded("return void 0 === void 0 || g();", only)).toBe("return true;");
    expect(folded("if (0 > 0) g();", only)).toBe("");
  });
  it("a constant right side decides a test only where its truth is all that is read", () => {
    expect(folded("if (a && false) h();", only)).toBe("");
    expect(folded("if (g() && false) h();", only)).toBe("if ((g(), false)) h();");
    expect(folded("return a && false;", only)).toBe("return a && false;");
  });
  it("an optional call on undefined is undefined", () => {
    expect(folded("return (void 0)?.x(g());", only)).toBe("return void 0;");
  });
  it("code after a return goes, hoisted functions stay", () => {
    expect(folded("return a; g(); function h() {}", only)).toBe("return a; function h() {}");
  });
  it("an unknown test stays", () => {
    expect(folded("if (a) h();", only)).toBe("if (a) h();");
  });
});

describe("constantCalls", () => {
  const only = { constantCalls };
  it("a call of a function that does nothing is undefined, its arguments' effects stay", () => {
    expect(folded("let n = () => void 0; let x = n(a), y = n(g());", only)).toBe(
      "let n = () => void 0; let x = void 0, y = (g(), void 0);",
    );
  });
  it("an async one folds only where its promise is awaited or unused", () => {
    const out = folded("async function s(p) { return; } let x = await s(a); s(b); return s(a);", only);
    expect(out).toContain("let x = void 0; void 0; return s(a);");
  });
  it("a function that does something is called", () => {
    expect(folded("let n = () => g(); return n(a);", only)).toBe("let n = () => g(); return n(a);");
  });
  it("a reassigned function is not known", () => {
    expect(folded("let n = () => void 0; if (a) n = g; return n(a);", only)).toContain("return n(a);");
  });
  it("a function that returns a new empty array or object is that literal, made at each call", () => {
    expect(folded("let none = (x, y = b) => { return []; }, blank = () => ({}); return [none(a), none(g()), blank()];", only)).toBe(
      "let none = (x, y = b) => { return []; }, blank = () => ({}); return [[], (g(), []), {}];",
    );
  });
  it("a default with an effect, or a non-empty literal, keeps the call", () => {
    expect(folded("let none = (x, y = g()) => []; let one = () => [1]; return [none(a), one()];", only)).toBe(
      "let none = (x, y = g()) => []; let one = () => [1]; return [none(a), one()];",
    );
  });
});

describe("freshArrayLength", () => {
  const only = { freshArrayLength };
  it("the test right after `let x = []` reads its length as 0", () => {
    expect(folded("let y = a, x = []; if (x.length > 0) return g(x); if (x.length > 0) return x;", only)).toBe(
      "let y = a, x = []; if (0 > 0) return g(x); if (x.length > 0) return x;",
    );
    expect(folded("const x = []; if (!x.length) g();", only)).toBe("const x = []; if (!0) g();");
  });
  it("not when something runs first, the array is not the last declarator's, or it is not empty", () => {
    const kept = [
      "let x = []; g(x); if (x.length > 0) return x;",
      "let x = [], y = g(x); if (x.length > 0) return x;",
      "let x = [a]; if (x.length > 0) return x;",
      "let x = []; if (g(x) && x.length > 0) return x;",
      "let x = []; if (x.length > g(x)) return x;",
    ];
    for (const src of kept) expect(folded(src, only)).toBe(folded(src, {}));
  });
  it("with the other folds, the branch and the array go", () => {
    expect(folded("let none = (n, all = b) => [], found = a ? [] : none(a); if (found.length > 0) return g(found); return b;")).toBe(
      "return b;",
    );
  });
});

describe("identityCalls", () => {
  const only = { identityCalls };
  it("a call of a function returning its argument is that argument", () => {
    expect(folded("function keep(t) { return t; } return keep(a.b) + keep(g(), h());", only)).toBe(
      "function keep(t) { return t; } return a.b + keep(g(), h());",
    );
  });
  it("earlier arguments keep their effects", () => {
    expect(folded("let second = (x, y) => y; return second(g(), a);", only)).toBe("let second = (x, y) => y; return (g(), a);");
  });
  it("a method passed through keeps its call without this", () => {
    expect(folded("function keep(t) { return t; } return keep(a.m)();", only)).toBe("function keep(t) { return t; } return keep(a.m)();");
  });
  it("a function that changes its argument is called", () => {
    expect(folded("function up(t) { return t + 1; } return up(a);", only)).toBe("function up(t) { return t + 1; } return up(a);");
  });
});

describe("forwardingCalls", () => {
  const only = { forwardingCalls };
  it("a call of a function that hands its parameters on is a call of the function it hands them to", () => {
    expect(folded("function names() { return pending(); } function pending() { return []; } return names();", only)).toBe(
      "function names() { return pending(); } function pending() { return []; } return pending();",
    );
    expect(folded("let copy = (x, y) => detach(x, y); function detach(x, y) { return x + y; } return copy(a, b);", only)).toBe(
      "let copy = (x, y) => detach(x, y); function detach(x, y) { return x + y; } return detach(a, b);",
    );
  });
  it("stays where the arguments differ, the target's name means another binding there, or the target is written", () => {
    const keep = [
      "function copy(x) { return detach(x); } function detach(x, y) { return y; } return copy(a, b);",
      "function copy(x, y) { return detach(y, x); } function detach(x, y) { return y; } return copy(a, b);",
      "function copy(x) { return detach(x, 1); } function detach(x, y) { return y; } return copy(a);",
      "function copy(x) { return detach(x); } function detach(x) { return x; } return ((detach) => copy(detach))(a);",
      "function copy(x) { return detach(x); } let detach = (x) => x; detach = (x) => -x; return copy(a);",
      "async function copy(x) { return detach(x); } function detach(x) { return x; } return copy(a);",
    ];
    for (const src of keep) expect(folded(src, only), src).toBe(folded(src, {}));
  });
  it("with the other folds, the wrapper goes", () => {
    expect(folded("function names() { return pending(); } function pending() { return a.p; } return names();")).toBe(
      "function pending() { return a.p; } return pending();",
    );
  });
});

describe("copyBindings", () => {
  const only = { copyBindings };
  it("a copy of a binding never written is read as the original", () => {
    expect(folded("let pool = a; return g(pool);", only)).toBe("let pool = a; return g(a);");
  });
  it("a copy stays where the original is written, or where the name means another binding", () => {
    expect(folded("let pool = a; a = g(); return pool;", only)).toBe("let pool = a; a = g(); return pool;");
    expect(folded("let pool = a; return (a) => pool;", only)).toBe("let pool = a; return a => pool;");
  });
  it("a var may be read before its value: not an original", () => {
    expect(folded("let pool = v; var v = g(); return pool;", only)).toBe("let pool = v; var v = g(); return pool;");
  });
});

describe("minifiedBooleans", () => {
  it("!0 and !1 read as true and false", () => {
    expect(folded("return [!0, !1, !a];", { minifiedBooleans })).toBe("return [true, false, !a];");
  });
});

describe("awaitConstants", () => {
  it("awaiting a settled value is the value", () => {
    expect(folded("let x = await void 0, y = await [], z = await g();", { awaitConstants })).toBe("let x = void 0, y = [], z = await g();");
  });
});

describe("unusedBindings", () => {
  const only = { unusedBindings };
  it("an unread binding with a pure initialiser goes", () => {
    expect(folded("let x = () => g(), y = null; return a;", only)).toBe("return a;");
  });
  it("an initialiser with an effect stays as a statement, in order", () => {
    expect(folded("let w = 1, x = g(), y = w; return y;", only)).toBe("let w = 1; g(); let y = w; return y;");
  });
  it("a read binding stays, and so does one written later", () => {
    expect(folded("let x = 1, y = 2; y = g(); return x;", only)).toBe("let x = 1, y = 2; y = g(); return x;");
  });
  it("an unread destructured key leaves the pattern, one key stays", () => {
    expect(folded("let { p: p, q: q = 5 } = a, { r: r } = b; return p;", only)).toBe("let {p: p} = a, {r: r} = b; return p;");
  });
  it("a pattern with a rest element keeps its keys", () => {
    expect(folded("let { p: p, ...rest } = a; return rest;", only)).toBe("let {p: p, ...rest} = a; return rest;");
  });
});

describe("unusedFunctions", () => {
  it("a function called only by itself goes, a called one stays", () => {
    expect(folded("function r(n) { return r(n - 1); } function u() {} return u();", { unusedFunctions })).toBe(
      "function u() {} return u();",
    );
  });
});

describe("unusedParameters", () => {
  const only = { unusedParameters };
  it("a callback's trailing parameters nothing reads go, inline or bound to a name only passed on", () => {
    expect(folded("let p = (x, y) => false; return [a.filter((t) => false), a.map((t, i) => i), a.some(p)];", only)).toBe(
      "let p = () => false; return [a.filter(() => false), a.map((t, i) => i), a.some(p)];",
    );
  });
  it("an arrow called here keeps them, and so do patterns, defaults and functions", () => {
    const kept = "let g = x => 1; return [g(a), (x => 2)(b), a.map(({t}) => 1), a.map((t = f()) => 1), a.map(function (t) { return 1; })];";
    expect(folded(kept, only)).toBe(kept);
  });
});

describe("duplicateFunctions", () => {
  const only = { duplicateFunctions };
  it("a function with the code of an earlier one in its scope is that one: its readers read the first", () => {
    expect(folded("function i(x) { return x; } function j(y) { return y; } return [a.map(j), i(b), j(b)];", only)).toBe(
      "function i(x) { return x; } return [a.map(i), i(b), i(b)];",
    );
  });
  it("not when they read other names, differ, live in other scopes, a reader sees another of that name, or one is returned by name", () => {
    const kept = [
      "function i(x) { return x; } function j(y) { return y; } return [i, j];",
      "function i(x) { return x + a; } function j(y) { return y + b; } return [i(1), j(1)];",
      "function i(x) { return x; } function j(y, z) { return z; } return [i(1), j(1, 2)];",
      "function i(x) { return x; } function g() { function j(y) { return y; } return j; } return [i, g];",
      "function i(x) { return x; } function j(y) { return y; } function g(i) { return j(i); } return [i(1), g(2)];",
    ];
    for (const src of kept) expect(folded(src, only)).toBe(folded(src, {}));
  });
});

describe("emptyStatements", () => {
  const only = { emptyStatements };
  it("an empty if keeps its test only for its effect", () => {
    expect(folded("if (a) {} if (g()) {} ; void 0;", only)).toBe("g();");
  });
  it("the length of a local array is read without effect; of anything else, not", () => {
    expect(folded("let xs = []; xs.push(a); if (xs.length > 0) {} if (b.length > 0) {}", only)).toBe(
      "let xs = []; xs.push(a); b.length > 0;",
    );
  });
  it("an empty branch turns the if around", () => {
    expect(folded("if (a) {} else h();", only)).toBe("if (!a) h();");
  });
  it("a block without declarations joins its list; one with a let stays", () => {
    expect(folded("{ g(); } { let x = g(); h(x); }", only)).toBe("g(); { let x = g(); h(x); }");
  });
});

describe("sequenceStatements", () => {
  it("a sequence statement is one statement per expression; a sequence value stays", () => {
    expect(folded("(g(), h()); return (g(), a);", { sequenceStatements })).toBe("g(); h(); return (g(), a);");
  });
});

describe("all folds to a fixpoint", () => {
  it("the cut client's state goes with everything it guarded", () => {
    const out = folded(
      "let c = null, q = [], n = () => void 0, t = g() ? a : a; if (c && q.length > 0) { q = await c.redial(q); } let s = n(); if (s !== void 0) await s; return t;",
    );
    expect(out).toBe("g(); return a;");
  });
  it("a port's no-op call leaves its arguments' effects, and what it guarded goes", () => {
    const out = folded(
      "async function check(x, y) { return; } let r = await check(a.b, { c: h() }); if (r !== void 0 && r.kept) k(); let no = async () => null, m = await no(); if (m) k(); return a;",
    );
    expect(out).toBe("a.b; h(); return a;");
  });
  it("a module keeps what is used from outside, and the functions they call", () => {
    const program = parse("function root() { return h(); } function h() { return g(); } function dead() { return h(); }", {
      ecmaVersion: "latest",
    });
    const statements: Node[] = program.body;
    const fired = foldDeadCode(statements, ["root"]);
    expect(statements.map((s) => (s as FunctionDeclaration).id.name)).toEqual(["root", "h"]);
    expect(fired.unusedFunctions).toBe(1);
  });
});

describe("the folds' turns", () => {
  const root = () => parse("function f(a) { return a; }", { ecmaVersion: "latest" }).body[0] as FunctionDeclaration;
  it("stop once every fold has run since the last change", () => {
    const calls: string[] = [];
    let changes = 1;
    const quiet =
      (name: string): Fold =>
      () => (calls.push(name), 0);
    const once: Fold = () => (calls.push("once"), changes > 0 ? changes-- : 0);
    expect(foldFunction(root(), { before: quiet("before"), once, after: quiet("after") })).toEqual({ before: 0, once: 1, after: 0 });
    expect(calls).toEqual(["before", "once", "after", "before", "once"]);
  });
  it("end with an error when a fold never stops changing the tree, and at once when there are none", () => {
    expect(() => foldFunction(root(), { forever: () => 1 })).toThrow("dead-code folding did not settle in 50 rounds");
    expect(foldFunction(root(), {})).toEqual({});
  });
});

describe("the folds' walks", () => {
  it("take a fold without scope into the walk before it, and start one at each fold with scope", () => {
    expect(passesOf(DEAD_CODE_FOLDS).map((p) => p.names)).toEqual([
      ["stackTraceHooks", "minifiedBooleans"],
      ["constantBindings", "constantConditions", "equalBranches"],
      ["constantCalls", "freshArrayLength"],
      ["identityCalls"],
      ["forwardingCalls"],
      ["copyBindings", "awaitConstants"],
      ["emptyStatements", "sequenceStatements"],
      ["unusedBindings"],
      ["unusedFunctions"],
      ["unusedParameters"],
      ["duplicateFunctions"],
    ]);
  });
  it("give a fold that walks its own way a walk alone", () => {
    expect(
      passesOf(FOLDS)
        .map((p) => p.names)
        .slice(-4),
    ).toEqual([
      ["freshObjectReads"],
      ["effectFreeCalls"],
      ["undefinedValues", "singleDeclarations", "controlExpressions", "sequenceHeads"],
      ["elseAfterExit", "compoundBodies"],
    ]);
  });
  it("refuse a fold listed before one it must run after", () => {
    expect(() => passesOf({ constantConditions, constantBindings })).toThrow("fold constantConditions must run after constantBindings");
  });
  it("fold in one walk what the rewrites before leave below", () => {
    // `!0 ? a : a`: minifiedBooleans makes the test `true`, then constantConditions picks the branch, in one walk.
    const fn = parse("function f(a) { return !0 ? a : b; }", { ecmaVersion: "latest" }).body[0] as FunctionDeclaration;
    expect(passesOf({ minifiedBooleans, constantConditions }).map((p) => p.names)).toEqual([["minifiedBooleans", "constantConditions"]]);
    expect(passesOf({ minifiedBooleans, constantConditions })[0]!.run(fn as Node)).toEqual([1, 1]);
    expect(generate(fn)).toContain("return a;");
  });
});

describe("the scope analysis kept between folds", () => {
  it("serves folds until one changes the tree, and then is made again", () => {
    const root = parse("function f(a) { return a; }", { ecmaVersion: "latest" }).body[0] as FunctionDeclaration;
    const seen: Array<ReturnType<typeof variablesOf>> = [];
    const names: Fold = (r) => (seen.push(variablesOf(r)), 0);
    let added = false;
    const addLocal: Fold = (r) => {
      if (added) return 0;
      added = true;
      (r as FunctionDeclaration).body.body.unshift(parse("let x = 1;", { ecmaVersion: "latest" }).body[0] as Statement);
      return 1;
    };
    foldFunction(root, { names, addLocal, again: names });
    const has = (i: number) => seen[i]!.some((v) => v.name === "x");
    // `again`, then `names` once more, then `addLocal` without a change: each has run since the change.
    expect(seen.length).toBe(3);
    expect([has(0), has(1), has(2)]).toEqual([false, true, true]);
    // Nothing changed after `addLocal` before the others asked: they had the analysis made after the change.
    expect(seen[2]).toBe(seen[1]);
    // A fold run on its own analyses the tree as it is.
    expect(variablesOf(root)).not.toBe(variablesOf(root));
  });
});
