import { describe, expect, it } from "vitest";
import { memoryContainer } from "../../test/helpers/memory-container.js";
import type { Container } from "../extract/types.js";
import { parseModule } from "../ast/parse-module.js";
import { walk, type Node } from "../ast/pattern.js";
import { collectClosure } from "./closure.js";
import { methodAsFunction } from "../locate/match-signature.js";
import { LiftError } from "./lift-error.js";

const memory = memoryContainer;

function rootOf(c: Container, path: string, name: string) {
  const m = c.modules.find((x) => x.path === path)!;
  let node: Node | undefined;
  walk(parseModule(c.text(m))!, (n) => {
    if (n.type === "FunctionDeclaration" && n.id?.name === name) node = n;
  });
  return { module: m, node: node!, name };
}

const names = (cl: ReturnType<typeof collectClosure>) => cl.definitions.map((d) => `${d.module.path.split("/").pop()}#${d.name}:${d.kind}`);

describe("closure", () => {
  it("follows top-level functions, constants and lazy-init assignments, and lists built-ins", () => {
    const c = memory({
      "/$bunfs/root/cli.js": [
        "var W = 10, unused = 3, lazy;",
        "function esc(s) { return s.replace(/[.*]/g, '\\\\$&') }",
        "var init = L(() => { other(); lazy = new Map([[1, W]]) });",
        "function score(q, tools) { let x = esc(q); return tools.map((t) => t.name === x ? W : lazy.get(1)).filter(Boolean) }",
        "function L(f) { let v; return () => (f && (v = f(), f = 0), v) }",
      ].join("\n"),
    });
    const cl = collectClosure(c, [rootOf(c, "/$bunfs/root/cli.js", "score")]);
    expect(names(cl)).toEqual(["cli.js#score:function", "cli.js#esc:function", "cli.js#W:variable", "cli.js#lazy:assigned"]);
    expect(cl.builtins).toEqual(["Boolean", "Map"]);
    expect(cl.environment).toEqual([]);
    expect(cl.unresolved).toEqual([]);
  });

  it("takes a method as a function of its arguments, and refuses one whose own code uses this or super", () => {
    const c = memory({
      "/$bunfs/root/cli.js": [
        "var W = 10;",
        "class Search { static limit = 2; static rank(q, tools) { return tools.filter((t) => t.name === q).slice(0, W) } }",
        "class Held { rank(q, tools) { return tools.slice(0, this.limit ?? W) } }",
        "var holder = { rank(q, tools) { return tools.map(function () { return this }).slice(0, W) } };",
      ].join("\n"),
    });
    const m = c.modules[0]!;
    const methods: Node[] = [];
    walk(parseModule(c.text(m))!, (n) => {
      if (n.type === "MethodDefinition" || (n.type === "Property" && n.method)) methods.push(methodAsFunction(n)!);
    });
    expect(methods.map((f) => f.type)).toEqual(["FunctionDeclaration", "FunctionDeclaration", "FunctionDeclaration"]);
    const [statik, held, object] = methods.map((node) => ({ module: m, node, name: "rank" }));
    expect(names(collectClosure(c, [statik!]))).toEqual(["cli.js#rank:function", "cli.js#W:variable"]);
    expect(() => collectClosure(c, [held!])).toThrow(LiftError);
    expect(() => collectClosure(c, [held!])).toThrow(/rank is a method that uses this; .* \(\S*cli\.js:3:14\)$/);
    // A nested function's this is its own.
    expect(names(collectClosure(c, [object!]))).toEqual(["cli.js#rank:function", "cli.js#W:variable"]);
  });

  it("crosses chunks through imports and aliased exports", () => {
    const c = memory({
      "/$bunfs/root/cli":
        'import { a as parse } from "/$bunfs/root/chunk-1.js";\nfunction rank(q) { return parse(q).length }\nexport { rank };',
      "/$bunfs/root/chunk-1.js": 'import { z } from "/$bunfs/root/chunk-2.js";\nfunction p(q) { return q.split(z) }\nexport { p as a };',
      "/$bunfs/root/chunk-2.js": "var z = /\\s+/;\nexport { z };",
    });
    const cl = collectClosure(c, [rootOf(c, "/$bunfs/root/cli", "rank")]);
    expect(names(cl)).toEqual(["cli#rank:function", "chunk-1.js#p:function", "chunk-2.js#z:variable"]);
  });

  it("reports host names with their place and names it cannot resolve", () => {
    const c = memory({
      "/$bunfs/root/cli.js": "function log(m) { process.stderr.write(m) }\nfunction f(q) { log(q); return missing(q) }",
    });
    const cl = collectClosure(c, [rootOf(c, "/$bunfs/root/cli.js", "f")]);
    expect(cl.environment).toEqual([
      { name: "process", at: { module: "/$bunfs/root/cli.js", line: 1, column: 19 }, in: "/$bunfs/root/cli.js#log" },
    ]);
    expect(cl.unresolved.map((u) => u.name)).toEqual(["missing"]);
  });

  it("does not mistake a local of the same name in another function for the module-level one", () => {
    const c = memory({
      "/$bunfs/root/cli.js": "function g() { let h = 1; h = 2; return h }\nvar h = (x) => x + 1;\nfunction f(q) { return h(q) }",
    });
    const cl = collectClosure(c, [rootOf(c, "/$bunfs/root/cli.js", "f")]);
    expect(names(cl)).toEqual(["cli.js#f:function", "cli.js#h:variable"]);
  });
});
