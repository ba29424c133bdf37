import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readCached } from "./changes.js";

const dir = mkdtempSync(join(tmpdir(), "changes-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const compared = {
  semantics: [{ feature: "f", before: "a", after: "b", changed: true }],
  behaviour: { searched: 12, changed: [], sentences: ["same"], extra: 1 },
  code: { added: ["a"], removed: [], changed: ["b"] },
};

function cached(text: string) {
  const file = join(dir, "c.json");
  writeFileSync(file, text);
  return readCached(file);
}

describe("track's cached comparisons", () => {
  it("one writeCached wrote is read back whole", () => {
    expect(cached(JSON.stringify(compared))).toEqual(compared);
  });

  it("one that is missing, does not parse or has a field of another shape is compared again (null), silently", () => {
    expect(readCached(join(dir, "none.json"))).toBeNull();
    for (const bad of [
      JSON.stringify(compared).slice(0, -2),
      "null",
      JSON.stringify({ ...compared, semantics: {} }),
      JSON.stringify({ ...compared, behaviour: { ...compared.behaviour, searched: "12" } }),
      JSON.stringify({ ...compared, behaviour: { searched: 12, changed: [] } }),
      JSON.stringify({ ...compared, code: { ...compared.code, removed: [3] } }),
      JSON.stringify({ semantics: [], behaviour: compared.behaviour }),
    ])
      expect(cached(bad)).toBeNull();
  });
});
