import { describe, expect, it } from "vitest";
import { impurities } from "./purity.js";

describe("purity check", () => {
  it("reports each non-built-in free name once, and imports, at their line and column", () => {
    const text =
      'const a = Math.max(1, 2);\nexport function f() {\n  return process.env[a] ?? globalThis.x ?? process.argv;\n}\nimport("x");\n';
    expect(impurities(text)).toEqual([
      { what: "import", line: 5, column: 1 },
      { what: "process", line: 3, column: 10 },
      { what: "globalThis", line: 3, column: 28 },
      // `a` holds a number, but only a variable never given anything else counts as one.
      { what: "a value read by a run-time key not passed through readProperty", line: 3, column: 22 },
    ]);
    expect(impurities("export const s = new Set([1]).size;\n")).toEqual([]);
  });
});
