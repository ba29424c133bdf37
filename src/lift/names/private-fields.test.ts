import { parse } from "acorn";
import { generate } from "astring";
import { describe, expect, it } from "vitest";
import type { Node } from "../../ast/pattern.js";
import { namePrivateFields } from "./private-fields.js";

function named(code: string): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" }) as unknown as Node;
  namePrivateFields(program);
  return generate(program);
}

/** A description cache as releases minify it, with its fields lettered as `letters` says. */
const cache = (e: string, t: string, o: string, s: string) => `class C {
  #${e} = new Map(); #${t} = null; #${o} = new WeakMap(); #${s};
  constructor(flag = false) { this.#${s} = flag; }
  clear() { this.#${e}.clear(); this.#${t} = null; this.#${o} = new WeakMap(); }
  describe(name) { let r = this.#${e}.get(name); if (r) return r; r = name.toUpperCase(); return (this.#${e}.set(name, r), r); }
  parsedNameOf(tool) { let r = this.#${o}.get(tool); if (r === void 0) (r = tool.name.split("_"), this.#${o}.set(tool, r)); return this.#${s} ? r : r.slice(1); }
  maybeInvalidate(list) { let sortedNames = list.join(","); if (this.#${t} !== sortedNames) (this.#${e}.clear(), this.#${t} = sortedNames); }
}`;

describe("private field names", () => {
  it("a map one method reads and fills holds its results; a field that stores one variable takes its name", () => {
    const out = named(cache("e", "t", "o", "s"));
    expect(out).toContain("#descriptions = new Map()");
    expect(out).toContain("#parsedNames = new WeakMap()");
    expect(out).toContain("#sortedNames = null");
    expect(out).toContain("this.#flag = flag");
    expect(out).not.toMatch(/#[a-z]\b/);
  });

  it("fields lettered differently by two releases get the same names", () => {
    expect(named(cache("e", "t", "o", "s"))).toBe(named(cache("r", "n", "e", "o")));
  });

  it("the renamed class behaves as the original", () => {
    const run = (code: string) => {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the source under test, as the lifted module will
      const C = (new Function(`${code}; return C;`) as () => unknown)() as new (
        flag?: boolean,
      ) => Record<string, (...a: unknown[]) => unknown>;
      const c = new C(true);
      c.maybeInvalidate!(["a"]);
      const tool = { name: "p_q" };
      const out = [c.describe!("x_y"), c.describe!("x_y"), c.parsedNameOf!(tool), c.parsedNameOf!(tool)];
      c.maybeInvalidate!(["b"]);
      c.clear!();
      return JSON.stringify([...out, c.describe!("z"), new C(false).parsedNameOf!(tool)]);
    };
    const original = cache("e", "t", "o", "s");
    expect(run(named(original))).toBe(run(original));
  });

  it("without evidence a field keeps its letter: two variables stored, a computed value, a map read in two methods", () => {
    const out = named(`class C {
      #a; #b; #c = new Map();
      set(x, y) { this.#a = x; this.#a = y; this.#b = x.length; }
      get(k) { return this.#c.get(k); }
      put(k, v) { this.#c.set(k, v); }
    }`);
    expect(out).toContain("#a;");
    expect(out).toContain("#b;");
    expect(out).toContain("#c = new Map()");
  });

  it("only placeholder names are replaced, and a name in use is not given twice", () => {
    const out = named(`class C {
      #names = 1; #x;
      keep(names) { this.#x = names; return this.#names; }
    }`);
    expect(out).toContain("#names = 1");
    expect(out).toContain("#names2;");
    expect(out).toContain("this.#names2 = names");
  });

  it("a class inside another that declares the same letter keeps it to itself", () => {
    const out = named(`class Outer {
      #a;
      set(value) { this.#a = value; return class Inner { #a = 1; read(o) { return [this.#a, o]; } }; }
      read() { return class Probe { get(o) { return o.#a; } }; }
    }`);
    expect(out).toContain("this.#value = value");
    expect(out).toContain("Inner {\n      #a = 1;");
    expect(out).toContain("return [this.#a, o]");
    expect(out).toContain("return o.#value");
  });
});
