import { describe, expect, it } from "vitest";
import { KEY_PORT_FUNCTION } from "./key-port.js";
import { layoutModule, LINE_WIDTH } from "./layout.js";
import { EMPTY_STATE_FUNCTION } from "./trusted-functions.js";

describe("layoutModule", () => {
  it("breaks long conditions, calls and object literals at the line width, and joins short literals", async () => {
    const long = `function f(query, tools) {\n  if (query.startsWith("mcp__") && query.length > 5 && tools.some(tool => tool.name.toLowerCase().startsWith(query)) && tools.length < 100) return tools.filter(tool => tool.name.toLowerCase().startsWith(query)).slice(0, 5).map(tool => tool.name);\n  return {\n    name: query,\n    score: 0\n  };\n}\n`;
    const out = await layoutModule(long);
    expect(Math.max(...out.split("\n").map((l) => l.length))).toBeLessThanOrEqual(LINE_WIDTH);
    expect(out).toContain("return { name: query, score: 0 };");
    expect(out.replace(/\s+/g, "")).toBe(
      long
        .replace(/\s+/g, "")
        .replace(/\(tool\)|tool(?==>)/g, "(tool)")
        .replace(/score:0}/, "score:0}"),
    );
  });
  it("leaves the functions the safety check trusts exactly as written", async () => {
    const text = `${KEY_PORT_FUNCTION}\n\n${EMPTY_STATE_FUNCTION}\n\nconst x = [propertyKey("a"), emptyState()];\n`;
    const out = await layoutModule(text);
    expect(out).toContain(KEY_PORT_FUNCTION);
    expect(out).toContain(EMPTY_STATE_FUNCTION);
    expect(out).not.toContain("prettier-ignore");
  });
  it("a string literal is never broken", async () => {
    const text = `const note = "${"word ".repeat(40)}";\n`;
    expect(await layoutModule(text)).toBe(`const note =\n  "${"word ".repeat(40)}";\n`);
  });
});
