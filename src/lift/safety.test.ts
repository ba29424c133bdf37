import { describe, expect, it } from "vitest";
import { impurities } from "./purity.js";
import { KEY_PORT_FUNCTION, READ_PORT_FUNCTION, portComputedKeys } from "./key-port.js";
import { wrapConversionCallbacks } from "./conversion-callbacks.js";
import { EMPTY_STATE_FUNCTION } from "./trusted-functions.js";

const whats = (text: string) => impurities(text).map((p) => p.what);

describe("safety check: refused", () => {
  const refused: Array<[string, string]> = [
    ["export const f = [].constructor.constructor;", "property constructor"],
    ['export const f = []["constructor"];', "property constructor"],
    ['export const f = []["constr" + "uctor"];', "property constructor"],
    ["export const f = ({}).__proto__;", "property __proto__"],
    ["const { constructor: c } = []; export { c };", "property constructor"],
    ["export const o = { __proto__: null };", "property __proto__"],
    ["export function f() { return arguments.callee; }", "property callee"],
    ["export function f(g) { return g.caller; }", "property caller"],
    ["Error.prepareStackTrace = (e, s) => s;", "property prepareStackTrace"],
    ["export const p = Object.getPrototypeOf([]);", "property getPrototypeOf"],
    ["export const r = Reflect.construct(Date, []);", "Reflect"],
    ["export const p = new Proxy({}, {});", "Proxy"],
    ["export class A { m() { return super.m; } }", "super"],
    ["export function F() { return new.target; }", "new.target"],
    ["JSON.stringify = () => '';", "a write to JSON"],
    ["delete JSON.parse;", "a write to JSON"],
    ["Math.x = 1;", "a write to Math"],
    ["Object.assign(JSON, {});", "JSON as a value"],
    ["export const M = Math;", "Math as a value"],
    ["export class A extends Array {}", "Array as a value"],
    ["export const k = Object[name()]; function name() { return 'keys'; }", "Object[…]"],
    ["export function f(o, k) { return o[k]; }", "a value read by a run-time key not passed through readProperty"],
    ["export function f(o, k) { o[k](); }", "a computed key not passed through propertyKey"],
    ["export function f(o, k) { const { [k]: v } = o; return v; }", "a run-time key in a destructuring pattern"],
    ["export const f = (k) => ({ [k]: 1 });", "a computed key not passed through propertyKey"],
    ["export const f = (k) => class { [k]() {} };", "a computed key not passed through propertyKey"],
    [
      `export const f = (o, k) => o[propertyKey(k)];\n${KEY_PORT_FUNCTION}`,
      "a value read by a run-time key not passed through readProperty",
    ],
    [
      `export const f = (o, k) => [o[propertyKey(k)]];\n${KEY_PORT_FUNCTION}`,
      "a value read by a run-time key not passed through readProperty",
    ],
    [`export const f = (o, k) => (o[propertyKey(k)] ??= 1);\n${KEY_PORT_FUNCTION}`, "the value of a logical assignment by a run-time key"],
    [`export const f = (o, k) => o?.[propertyKey(k)];\n${KEY_PORT_FUNCTION}`, "a value read by a run-time key after an optional link"],
    [`export const f = (o, k) => o?.a[propertyKey(k)];\n${KEY_PORT_FUNCTION}`, "a value read by a run-time key after an optional link"],
    ["export const f = (x) => Object.assign(x, { a: 1 });", "Object.assign of an object not made here"],
    ["export const f = (x) => Object.freeze(x);", "Object.freeze of an object not made here"],
    ["export const parts = (s) => s.split(/\\s+/).filter(Boolean);", "Boolean as a value"],
    ["export const f = (keep) => keep(String);", "String as a value"],
    ["export const has = ({}).hasOwnProperty;", ".hasOwnProperty as a value"],
    ["export const f = (() => 0).call.call;", ".call as a value"],
    ["const { includes } = []; export { includes };", ".includes as a value"],
    ["export function f(g) { g.call = () => 0; }", "a write to .call"],
    ["export const s = RegExp.input;", "RegExp.input"],
    ["export function f(o) { for (let i = 0; i < 3; i++) { i = 'constructor'; o[i]; } }", "a computed key not passed through propertyKey"],
  ];
  for (const [code, what] of refused) {
    it(`${code} → ${what}`, () => expect(whats(code)).toContain(what));
  }

  it("reports line and column of each problem", () => {
    expect(impurities("const a = 1;\nexport const f = [].constructor;\n")).toEqual([{ what: "property constructor", line: 2, column: 21 }]);
  });

  it("a port function that is not the canonical text, or that is shadowed or reassigned, does not count", () => {
    const altered = KEY_PORT_FUNCTION.replace('"constructor", ', "");
    expect(whats(`export function f(o, k) { o[propertyKey(k)](); }\n${altered}`)).toEqual(
      expect.arrayContaining(["propertyKey (not the canonical function)", "a computed key not passed through propertyKey"]),
    );
    expect(whats(`export function f(o, k) { const propertyKey = (x) => x; o[propertyKey(k)](); }\n${KEY_PORT_FUNCTION}`)).toEqual(
      expect.arrayContaining(["propertyKey shadowed", "a computed key not passed through propertyKey"]),
    );
    expect(whats(`export function f(o, k) { propertyKey = (x) => x; o[propertyKey(k)](); }\n${KEY_PORT_FUNCTION}`)).toContain(
      "propertyKey reassigned",
    );
    const readAltered = READ_PORT_FUNCTION.replace("!Object.hasOwn(object, name)", "false");
    expect(whats(`export const f = (o, k) => readProperty(o, k);\n${KEY_PORT_FUNCTION}\n${readAltered}`)).toEqual(
      expect.arrayContaining(["readProperty (not the canonical function)"]),
    );
  });

  it("emptyState may use Proxy only as its canonical text", () => {
    expect(whats(EMPTY_STATE_FUNCTION)).toEqual([]);
    expect(whats(EMPTY_STATE_FUNCTION.replace("return 0;", "return 1;"))).toEqual(
      expect.arrayContaining(["Proxy", "emptyState (not the canonical function)"]),
    );
  });
});

describe("safety check: accepted", () => {
  const accepted = [
    "export function last(a) { return a[a.length - 1]; }",
    "export function f(m) { return m[1] + m[0x2] + m[-1]; }",
    "export function f(a) { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; return s; }",
    "export function f(a) { for (let i = 0; i < a.length; i += 8) for (let j = i; j < i + 8; j++) a[j - i] = j; }",
    `export function f(o, k) { return Object.hasOwn(o, k) ? readProperty(o, k) : undefined; }\n${KEY_PORT_FUNCTION}\n${READ_PORT_FUNCTION}`,
    `export function f(o, k, v) { if (o[propertyKey(k)]) o[propertyKey(k)] += typeof o[propertyKey(k)] + o[propertyKey(k)]; o[propertyKey(k)] = v; }\n${KEY_PORT_FUNCTION}`,
    `export function f(o, k) { delete o[propertyKey(k)]; o[propertyKey(k)] ??= 1; o[propertyKey(k)]?.(); return o?.[propertyKey(k)]() ?? !o[propertyKey(k)]; }\n${KEY_PORT_FUNCTION}`,
    `export const f = (k) => ({ [propertyKey(k)]: 1, [Symbol.iterator]() {} });\n${KEY_PORT_FUNCTION}`,
    "export const f = (a) => Object.assign({}, a, Object.freeze([1]));",
    'export function f(o) { return o["name"] ?? o[`title`]; }',
    "export const parts = (s) => s.split(/\\s+/).filter(value => Boolean(value)).map(value => String(value));",
    "export const m = Math.max(1, 2) + Number.parseInt('3', 10);",
    "export const s = new Set([1]); export const t = typeof Intl;",
    "export function f(x) { return x instanceof Error ? x.message : String(x); }",
    "export function f(x) { return typeof x.then === 'function'; }",
    "export class Cache { constructor(size = 1) { this.size = size; } get(k) { return k; } }",
    "export const o = { name: 'a', get size() { return 1; }, [Symbol.iterator]: null };",
    "export function f(tool) { let { name, description = '' } = tool; return name + description; }",
    "export const r = String.raw`a${1}`; export const u = undefined ?? NaN ?? Infinity;",
  ];
  for (const code of accepted) it(code.split("\n")[0]!, () => expect(impurities(code)).toEqual([]));
});

describe("key port", () => {
  it("wraps keys that are not harmless, by what the value read is for, and adds the ports once", () => {
    const text = "export function f(o, k, a) { let i = 0; i++; o[k](); return [o[k], a[i], a[1], o[k + 'x'], o['name']]; }\n";
    const r = portComputedKeys(text);
    expect(r.ported).toBe(3);
    expect(r.text).toContain("o[propertyKey(k)]();");
    expect(r.text).toContain("return [readProperty(o, k), a[i], a[1], readProperty(o, k + 'x'), o['name']];");
    expect(r.text.split("function propertyKey").length).toBe(2);
    expect(r.text.split("function readProperty").length).toBe(2);
    expect(impurities(r.text)).toEqual([]);
    expect(portComputedKeys("export const a = [1][0];\n")).toEqual({ text: "export const a = [1][0];\n", ported: 0 });
  });

  it("nested keys are wrapped inside out; destructuring keys and constant forbidden keys are left for the check to refuse", () => {
    const r = portComputedKeys("export function f(o, k, j) { const { [k]: v } = o; return (o)[k[j]][j] ?? v ?? o['constr' + 'uctor']; }\n");
    expect(r.ported).toBe(3);
    expect(r.text).toContain("const { [k]: v } = o;");
    // The inner read is only read from (its value is not kept): the key port is enough there.
    expect(r.text).toContain("readProperty((o)[propertyKey(k[propertyKey(j)])], j)");
    expect(whats(r.text)).toEqual(["a run-time key in a destructuring pattern", "property constructor"]);
  });

  it("names a literal or class defines by a run-time key pass through the key port", () => {
    const r = portComputedKeys("export const f = (k) => ({ [k]: 1, [Symbol.iterator]: null });\n");
    expect(r.text).toContain("({ [propertyKey(k)]: 1, [Symbol.iterator]: null })");
    expect(impurities(r.text)).toEqual([]);
  });

  it("the port refuses forbidden keys and symbols at run time and passes others converted", () => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the source under test, as the lifted module will
    const port = (new Function(`${KEY_PORT_FUNCTION}; return ${"propertyKey"};`) as () => unknown)() as (k: unknown) => string;
    expect(port(1)).toBe("1");
    expect(port("name")).toBe("name");
    expect(() => port("constructor")).toThrow(TypeError);
    expect(() => port(["__proto__"])).toThrow(TypeError);
    expect(() => port({ toString: () => "prototype" })).toThrow(TypeError);
    expect(() => port(Symbol.iterator)).toThrow(TypeError);
    // A key that answers differently each time it is converted is converted once.
    let n = 0;
    const shifty = { toString: () => (n++ === 0 ? "name" : "constructor") };
    expect(port(shifty)).toBe("name");
  });

  it("the read port hands over own values and inherited primitives, never an inherited function or object", () => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the source under test, as the lifted module will
    const read = (new Function(`${KEY_PORT_FUNCTION}\n${READ_PORT_FUNCTION}; return readProperty;`) as () => unknown)() as (
      o: unknown,
      k: unknown,
    ) => unknown;
    const own = () => 1;
    expect(read({ f: own }, "f")).toBe(own);
    expect(read({ a: { b: 1 } }, "a")).toEqual({ b: 1 });
    expect(read(Object.create({ x: 2 }), "x")).toBe(2);
    expect(read("abc", 1)).toBe("b");
    expect(read([5, 6], "length")).toBe(2);
    expect(read({}, "missing")).toBe(undefined);
    for (const [o, k] of [
      [{}, "hasOwnProperty"],
      [{}, "toString"],
      [[], "includes"],
      ["s", "at"],
      [() => 0, "call"],
      [new Map(), "get"],
    ] as const)
      expect(() => read(o, k), `${String(k)}`).toThrow(/inherited/);
    expect(() => read({}, "__proto__")).toThrow(/refused/);
    expect(() => read(null, "x")).toThrow(TypeError);
  });

  it("conversions passed as callbacks become arrows that call them", () => {
    const text = "export const f = (s, String2) => s.split(',').filter(Boolean).map(String).map(Number).map(String2);\n";
    const out = wrapConversionCallbacks(text);
    expect(out).toBe(
      "export const f = (s, String2) => s.split(',').filter(value => Boolean(value)).map(value => String(value)).map(value => Number(value)).map(String2);\n",
    );
    expect(wrapConversionCallbacks("const Boolean = (x) => x; export const f = (a) => a.filter(Boolean);\n")).toContain(
      "a.filter(Boolean)",
    );
    expect(impurities(out)).toEqual([]);
  });
});
