import { describe, expect, it } from "vitest";
import { memoryContainer } from "../../test/helpers/memory-container.js";
import { parseModule } from "../ast/parse-module.js";
import { walk, type Node } from "../ast/pattern.js";
import { enclosingBindings } from "./enclosing-scope.js";

describe("enclosing bindings", () => {
  it("names the parameters and declarations around a method, not its own or its siblings'", () => {
    const text = [
      "var top = 1;",
      "function create(ctx, { mode } = {}) {",
      "  let k = 2; function helper() { let hidden = 3 }",
      "  try { } catch (err) { }",
      "  return { other(o) { let s = 1 }, async call(q) { let inner = 1; return ctx.x + k + q } };",
      "}",
    ].join("\n");
    const c = memoryContainer({ "/$bunfs/root/cli.js": text });
    let call: Node | undefined;
    walk(parseModule(text)!, (n) => {
      if (n.type === "Property" && n.key.type === "Identifier" && n.key.name === "call") call = n;
    });
    // Positions from a separate parse: the function works by range, not by node identity.
    const names = enclosingBindings(c, c.modules[0]!, call!);
    expect([...names].sort()).toEqual(["ctx", "helper", "k", "mode"]);
  });
});
