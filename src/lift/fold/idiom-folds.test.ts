import { parse, type FunctionDeclaration } from "acorn";
import { generate } from "astring";
import { describe, expect, it } from "vitest";
import type { Node } from "../../ast/pattern.js";
import { foldDeadCode, foldFunction } from "./index.js";
import type { Fold } from "./tree.js";
import { singleDeclarations } from "./single-declarations.js";
import { undefinedValues } from "./undefined-values.js";
import { controlExpressions } from "./control-expressions.js";
import { sequenceHeads } from "./sequence-heads.js";
import { elseAfterExit } from "./else-after-exit.js";
import { compoundBodies } from "./compound-bodies.js";
import { freshObjectReads } from "./fresh-object-reads.js";
import { effectFreeCalls } from "./effect-free-calls.js";
import { emptyStateCalls, emptyStateKeys } from "./empty-state-calls.js";
import { unusedFunctions } from "./unused-functions.js";

/** `src` is the body of an async function f; returns f's body folded by `folds` (all of them by default), on one line. */
function folded(src: string, folds?: Record<string, Fold>): string {
  const program = parse(`async function f(a, b) { ${src} }`, { ecmaVersion: "latest", sourceType: "module" });
  const fn = program.body[0] as FunctionDeclaration;
  foldFunction(fn, folds);
  return generate(fn.body)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\{\s*/, "")
    .replace(/\s*\}$/, "");
}

describe("singleDeclarations", () => {
  const only = { singleDeclarations };
  it("one binding per declaration, in order", () => {
    expect(folded("let x = a(), y = x + 1; const [p, q] = b, r = p; return [x, y, q, r];", only)).toBe(
      "let x = a(); let y = x + 1; const [p, q] = b; const r = p; return [x, y, q, r];",
    );
  });
  it("for-loop heads keep theirs", () => {
    expect(folded("for (let i = 0, n = a.length; i < n; i++) b(i);", only)).toBe("for (let i = 0, n = a.length; i < n; i++) b(i);");
  });
});

describe("undefinedValues", () => {
  const only = { undefinedValues };
  it("void 0 is undefined", () => {
    expect(folded("if (a === void 0) return void 0; return b;", only)).toBe("if (a === undefined) return undefined; return b;");
  });
  it("not where a binding of the module is named undefined", () => {
    expect(folded("let g = (undefined) => a === void 0; return [g, void 0];", only)).toBe(
      "let g = undefined => a === void 0; return [g, undefined];",
    );
  });
});

describe("controlExpressions", () => {
  const only = { controlExpressions };
  it("&&, || and ?? statements are ifs", () => {
    expect(folded("a && b(); a || b(); a.x ?? b(); !a || b(); a === 1 || b();", only)).toBe(
      "if (a) b(); if (!a) b(); if (a.x == null) b(); if (a) b(); if (a !== 1) b();",
    );
  });
  it("a conditional statement is an if/else, a sequence in a branch a block", () => {
    expect(folded("a ? b() : (b(1), b(2));", only)).toBe("if (a) b(); else { b(1); b(2); }");
  });
  it("an if made in the consequent of an if with an else keeps that else its own", () => {
    expect(folded("if (b) a && b(); else b(1);", only)).toBe("if (b) { if (a) b(); } else b(1);");
  });
  it("a value that is used stays an expression", () => {
    expect(folded("return a && b();", only)).toBe("return a && b();");
  });
});

describe("sequenceHeads", () => {
  const only = { sequenceHeads };
  it("the parts before the last run first, as statements", () => {
    expect(folded("b(1); return b(2), b(3), a;", only)).toBe("b(1); b(2); b(3); return a;");
    expect(folded("if ((a = b(), a > 1)) throw (b(1), a);", only)).toBe("a = b(); if (a > 1) { b(1); throw a; }");
    expect(folded("let x = (b(), a); a = (b(1), x); switch (b(2), a) {}", only)).toBe("b(); let x = a; b(1); a = x; b(2); switch (a) { }");
  });
  it("a sequence as a body is a block", () => {
    expect(folded("for (let x of a) (b(x), b(1)); if (a) (b(), b(2));", only)).toBe(
      "for (let x of a) { b(x); b(1); } if (a) { b(); b(2); }",
    );
  });
  it("an assignment to a member, or one that reads its target first, keeps its order; a declaration in a loop head stays", () => {
    expect(folded("a.x = (b(), 1); for (let i = (b(), 0); ; ) break;", only)).toBe("a.x = (b(), 1); for (let i = (b(), 0); ; ) break;");
    expect(folded("a += (b(), 1);", only)).toBe("a += (b(), 1);");
  });
});

describe("elseAfterExit", () => {
  const only = { elseAfterExit };
  it("what the else held follows the if, along an else-if chain", () => {
    expect(folded("if (a) return 1; else if (b) throw a; else { b(); b(1); } return 2;", only)).toBe(
      "if (a) return 1; if (b) throw a; b(); b(1); return 2;",
    );
  });
  it("after break and continue too; not after a branch that may go on", () => {
    expect(folded("for (;;) { if (a) break; else b(); if (b) continue; else a(); }", only)).toBe(
      "for (; ; ) { if (a) break; b(); if (b) continue; a(); }",
    );
    expect(folded("if (a) b(); else return 1;", only)).toBe("if (a) b(); else return 1;");
  });
  it("an else declaring names moves only where they clash with nothing", () => {
    expect(folded("if (a) return 1; else { let x = b(); return x; }", only)).toBe("if (a) return 1; let x = b(); return x;");
    // `x` would capture the global x read after the if, or clash with the parameter a.
    expect(folded("if (a) return 1; else { let x = b(); b(x); } return x;", only)).toBe(
      "if (a) return 1; else { let x = b(); b(x); } return x;",
    );
    expect(folded("if (b) return 1; else { let a = b(); return a; }", only)).toBe("if (b) return 1; else { let a = b(); return a; }");
  });
});

describe("compoundBodies", () => {
  const only = { compoundBodies };
  it("a loop whose body is an if gets braces, and so does its else", () => {
    expect(folded("for (let w of a) if (w) b(w); else b();", only)).toBe("for (let w of a) { if (w) b(w); else b(); }");
    expect(folded("if (a) for (;;) if (b) a(); else b();", only)).toBe("if (a) { for (; ; ) { if (b) a(); else b(); } }");
  });
  it("a body that would not fit on the line of its head gets braces", () => {
    const call = `b(${"a, ".repeat(30)}a)`;
    expect(folded(`if (a) ${call}; for (;;) ${call}; if (a) b(); else ${call};`, only)).toBe(
      `if (a) { ${call}; } for (; ; ) { ${call}; } if (a) { b(); } else { ${call}; }`,
    );
    expect(folded("if (a) b(a, a); for (;;) b(a);", only)).toBe("if (a) b(a, a); for (; ; ) b(a);");
  });
  it("both branches get braces once one has them; an else-if chain stays", () => {
    expect(folded("if (a) { a(); b(); } else b();", only)).toBe("if (a) { a(); b(); } else { b(); }");
    expect(folded("if (a) a(); else if (b) b();", only)).toBe("if (a) a(); else if (b) b();");
    expect(folded("if (a) a(); else if (b) { b(); a(); } else b(1);", only)).toBe(
      "if (a) { a(); } else if (b) { b(); a(); } else { b(1); }",
    );
  });
});

describe("freshObjectReads", () => {
  const only = { freshObjectReads };
  const make =
    "function make(m) { let n = m.length; return { data: { matches: m, n, ...(n > 0 && { more: 1 }) }, ...(a ? { x: 1 } : {}) }; }";
  it("a read of a fresh object's own properties goes: first thing in a function every call passes one", () => {
    expect(folded(`let cb = async (r) => { r.data.matches; b(r); }; await cb(make(a)); ${make}`, only)).toBe(
      `let cb = async r => { b(r); }; await cb(make(a)); ${make.replace("(n > 0 && { more: 1 })", "n > 0 && ({ more: 1 })").replace("(a ? { x: 1 } : {})", "a ? { x: 1 } : {}")}`.replace(
        /\s+/g,
        " ",
      ),
    );
  });
  it("right after the declaration it initialises", () => {
    expect(folded("let r = { data: { m: a } }; r.data.m; return r;", only)).toBe("let r = { data: { m: a } }; return r;");
  });
  it("not where the object may have been seen, changed, or lacks the property", () => {
    for (const kept of [
      "let cb = (r) => { b(r); r.data; }; cb({ data: 1 });",
      "let cb = (r) => { r.data; }; cb({ data: 1 }); b(cb);",
      "let cb = (r) => { r.data; }; cb({ data: 1 }); cb(a);",
      "let cb = (r) => { r.data.m; }; cb({ data: a });",
      "let cb = (r) => { r.data; }; cb({ get data() { return 1; } });",
      "let cb = (r) => { r.data.m; }; cb({ data: { m: 1 }, ...a });",
      "let cb = (r) => { r.data.m; }; cb({ data: { m: 1 }, ...(a && { data: 2 }) });",
      "let cb = (r) => { r.x; }; cb({ data: 1 });",
      "let r = { data: 1 }; b(r); r.data;",
      "function mk() { if (a) return { d: 1 }; return { d: 2 }; } let r = mk(); r.d;",
    ])
      expect(folded(kept, only)).toBe(folded(kept, {}));
  });
});

describe("the idiom folds with the others", () => {
  it("settle on code a person would write", () => {
    expect(folded("let x = a(), y = void 0; x && (y = b(x), a(y)); if (y === void 0) return !1; else return x ? (a(), !0) : y;")).toBe(
      "let x = a(); let y = undefined; if (x) { y = b(x); a(y); } if (y === undefined) return false; return x ? (a(), true) : y;",
    );
  });
});

describe("effectFreeCalls", () => {
  const only = { effectFreeCalls };
  it("a call of a function that only reads a plain object goes, and then the function", () => {
    expect(
      folded(
        "let e = { ok: false }; let cb = async (r) => { get(); return r; }; e.ok = true; return cb(e.ok); function get() { return e.ok; }",
        {
          effectFreeCalls,
          unusedFunctions,
        },
      ),
    ).toBe("let e = { ok: false }; let cb = async r => { return r; }; e.ok = true; return cb(e.ok);");
  });
  it("empty functions, arrows and pure ifs; pure arguments", () => {
    expect(
      folded(
        "let g = () => {}; let h = (x) => x === 1; function k(x) { if (!x) return; return typeof x; } g(); h(a); k(1); return [g, h, k];",
        only,
      ),
    ).toBe("let g = () => {}; let h = x => x === 1; function k(x) { if (!x) return; return typeof x; } return [g, h, k];");
  });
  it("not where the call or the function may do something", () => {
    for (const kept of [
      // The argument calls; the spread iterates.
      "let g = () => {}; g(b()); g(...a);",
      // A read of a parameter's property may throw or run a getter; so may a read of a plain object's property's property.
      "let g = (x) => x.y; g(a);",
      "let e = { d: a }; let g = () => e.d.y; g();",
      // The object is passed on, is the receiver of a call, has a getter, or is written.
      "let e = { d: 1 }; let g = () => e.d; b(e); g();",
      "let e = { d: 1, m() { b(); } }; let g = () => e.d; e.m(); g();",
      "let e = { get d() { return b(); } }; let g = () => e.d; g();",
      "let e = { d: 1 }; let g = () => e.d; e = a; g();",
      // A generator, a default, a function rebound, an awaited call, a call of something else.
      "function* g() {} g();",
      "let g = (x = b()) => {}; g();",
      "let g = () => {}; g = b; g();",
      "let g = async () => {}; await g();",
      "a(); b.c();",
    ])
      expect(folded(kept, only)).toBe(folded(kept, {}));
  });
});

describe("emptyStateCalls", () => {
  /** `src` as a module body whose `call` the adapter alone calls, with `context` as the source of its arguments after the input. */
  function module(src: string, context: string, used = ["call"]): string {
    const program = parse(src, { ecmaVersion: "latest", sourceType: "module" });
    const statements = program.body as Node[];
    foldDeadCode(statements, used, [], { emptyStateCalls: emptyStateCalls({ call: "call", keys: emptyStateKeys(context) }) });
    return statements
      .map((s) => generate(s as never))
      .join(" ")
      .replace(/\s+/g, " ")
      .trim();
  }
  const context = '{ signal: emptyState() }, { "tools": allTools, "room": emptyState(), "refresh": undefined }';
  it("the keys that hold the empty state, argument by argument", () => {
    expect(emptyStateKeys(context)).toEqual([["signal"], ["room"]]);
  });
  it("a call of a destructured part of the context goes; of a parameter's part too", () => {
    expect(
      module(
        "async function call(input, { signal }, context) { let { tools, room } = context; room(1); signal(); return tools; }",
        context,
      ),
    ).toBe("async function call(input, {signal}, context) { let {tools, room} = context; return tools; }");
  });
  it("not a part the adapter fills with something else, nor where the release may call call() itself", () => {
    for (const [src, used] of [
      ["async function call(input, o, context) { let { tools, refresh } = context; tools(); refresh(); return tools; }", ["call"]],
      ["async function call(input, o, context) { let { room } = context; room(b()); room(...a); return room; }", ["call"]],
      ["async function call(input, o, context) { context = a; let { room } = context; room(); }", ["call"]],
      ["async function call(input, o, context) { let { room } = context; room = a; room(); }", ["call"]],
      ["async function call(input, o, context) { let { room } = context; room(); } call(1, 2, {});", ["call"]],
      ["async function call(input, o, context) { let { room } = context; room(); } function other() { return call; }", ["call", "other"]],
    ] as const)
      expect(module(src, context, [...used])).toBe(module(src, "", [...used]));
  });
});
