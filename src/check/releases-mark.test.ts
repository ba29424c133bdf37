import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { markedModule } from "./releases.js";

const dir = mkdtempSync(join(tmpdir(), "check-lift-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function marked(text: string) {
  writeFileSync(join(dir, "lifted.json"), text);
  return markedModule(dir);
}

describe("the mark beside a lift kept in check's cache", () => {
  it("names the module when it is of this searchlift's form", () => {
    expect(marked(JSON.stringify({ module: "claude-code/2.1.112/npm/tool-search.mjs", form: 2 }))).toBe(
      join(dir, "claude-code/2.1.112/npm/tool-search.mjs"),
    );
  });

  it("one that is missing, does not parse or is of another shape or form gives null: the release is lifted again", () => {
    rmSync(join(dir, "lifted.json"), { force: true });
    expect(markedModule(dir)).toBeNull();
    for (const bad of [
      '{ "module": "m.mjs", "form": 2',
      "null",
      JSON.stringify({ module: "m.mjs", form: 1 }),
      JSON.stringify({ module: "m.mjs", form: "2" }),
      JSON.stringify({ module: 7, form: 2 }),
      JSON.stringify({ module: "", form: 2 }),
      JSON.stringify({ form: 2 }),
    ])
      expect(marked(bad)).toBeNull();
  });
});
