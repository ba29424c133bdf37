import { parse } from "acorn";
import { generate } from "astring";
import { describe, expect, it } from "vitest";
import type { Node } from "../../ast/pattern.js";
import { nameProgram } from "./namer.js";
import { isParagraph, subjectOf } from "./long-text.js";

const PARAGRAPH = "If an upload or send would be any of these, decline that step. Emails for the user are fine.";

function named(code: string): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  nameProgram({ statements: program.body, roles: new Map(), taken: ["root"], renamable: (n) => n.startsWith("h_") });
  return program.body.map((s: Node) => generate(s as never)).join("\n");
}

describe("long text constants", () => {
  it("a paragraph is told from a phrase", () => {
    expect(isParagraph(PARAGRAPH)).toBe(true);
    expect(isParagraph("mcp__remote-devices__")).toBe(false);
    expect(isParagraph("Call whichever you need directly.")).toBe(false);
    expect(subjectOf(PARAGRAPH)).toBe("upload");
  });

  it("a paragraph the code strips out is boilerplate, named by what it is about", () => {
    const out = named(`let h_1a2b = ${JSON.stringify(PARAGRAPH)}; function root(d) { return d.replace(h_1a2b, "").toLowerCase(); }`);
    expect(out).toContain("let uploadBoilerplate = ");
    expect(out).not.toContain("ifAnUploadText");
  });

  it("any other paragraph is a paragraph; a short text keeps its words", () => {
    const out = named(`let h_1a2b = ${JSON.stringify(PARAGRAPH)}; let h_3c4d = "mcp__"; function root(d) { return [h_1a2b, h_3c4d, d]; }`);
    expect(out).toContain("let uploadParagraph = ");
    expect(out).toContain("let mcpText = ");
  });
});
