import { describe, expect, it } from "vitest";
import { impurities } from "./purity.js";
import { KEY_PORT_FUNCTION, portComputedKeys } from "./key-port.js";
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
    ["export function f(o, k) { return o[k]; }", "a computed key not passed through propertyKey"],
    ["export function f(o, k) { const { [k]: v } = o; return v; }", "a computed key not passed through propertyKey"],
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
    expect(whats(`export function f(o, k) { return o[propertyKey(k)]; }\n${altered}`)).toEqual(
      expect.arrayContaining(["propertyKey (not the canonical function)", "a computed key not passed through propertyKey"]),
    );
    expect(whats(`export function f(o, k) { const propertyKey = (x) => x; return o[propertyKey(k)]; }\n${KEY_PORT_FUNCTION}`)).toEqual(
      expect.arrayContaining(["propertyKey shadowed", "a computed key not passed through propertyKey"]),
    );
    expect(whats(`export function f(o, k) { propertyKey = (x) => x; return o[propertyKey(k)]; }\n${KEY_PORT_FUNCTION}`)).toContain(
      "propertyKey reassigned",
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
    "export function f(o, k) { return Object.hasOwn(o, k) ? o[propertyKey(k)] : undefined; }\n" + KEY_PORT_FUNCTION,
    'export function f(o) { return o["name"] ?? o[`title`]; }',
    "export const parts = (s) => s.split(/\\s+/).filter(Boolean).map(String);",
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
  it("wraps keys that are not harmless, leaves the rest, and adds the port once", () => {
    const text = "export function f(o, k, a) { let i = 0; i++; return [o[k], a[i], a[1], o[k + 'x'], o['name']]; }\n";
    const r = portComputedKeys(text);
    expect(r.ported).toBe(2);
    expect(r.text).toContain("return [o[propertyKey(k)], a[i], a[1], o[propertyKey(k + 'x')], o['name']];");
    expect(r.text.split("function propertyKey").length).toBe(2);
    expect(impurities(r.text)).toEqual([]);
    expect(portComputedKeys("export const a = [1][0];\n")).toEqual({ text: "export const a = [1][0];\n", ported: 0 });
  });

  it("nested and destructuring keys are wrapped; a constant forbidden key is left for the check to refuse", () => {
    const r = portComputedKeys("export function f(o, k, j) { const { [k]: v } = o; return o[k[j]] ?? v ?? o['constr' + 'uctor']; }\n");
    expect(r.ported).toBe(3);
    expect(r.text).toContain("const {[propertyKey(k)]: v} = o;".replace("{[", "{ [").replace("]: v}", "]: v }"));
    expect(r.text).toContain("o[propertyKey(k[propertyKey(j)])]");
    expect(whats(r.text)).toEqual(["property constructor"]);
  });

  it("the port refuses forbidden keys and symbols at run time and passes others converted", async () => {
    const port = new Function(`${KEY_PORT_FUNCTION}; return ${"propertyKey"};`)() as (k: unknown) => string;
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
});
