import { describe, expect, it } from "vitest";
import { curatedAbout, readEntries } from "./curated.js";

describe("the names file", () => {
  it("shipped, reads whole", () => {
    expect(curatedAbout().size).toBeGreaterThan(10);
  });

  it("with a malformed line, says which line and field", () => {
    const good = `{"name": "a", "about": "x"}`;
    expect(() => readEntries(`${good}\n// a comment\n{"name": "b", "about": "y", "features": {"kind": "method"}}`)).toThrow(
      /^names file, line 3: features\.kind: Invalid option: expected one of "function"\|"value"\|"class"$/,
    );
    expect(() => readEntries(`${good}\n{"name": "b"`)).toThrow(/^names file, line 2: /);
    expect(readEntries(`${good}\n\n// note`)).toEqual([{ name: "a", about: "x" }]);
  });
});
