import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keepLift, reuseLift } from "./lift-cache.js";
import type { LiftResult } from "./lift.js";

const dirs: string[] = [];
const fresh = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), name));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A lift kept under "k" in a fresh cache, as keepLift writes it. */
function kept(): { cache: string; entry: string } {
  const lifted = fresh("lifted-");
  const module = join(lifted, "tool-search.mjs");
  const declarations = join(lifted, "tool-search.d.ts");
  writeFileSync(module, "export {};\n");
  writeFileSync(declarations, "export {};\n");
  const result: LiftResult = {
    client: "claude-code",
    version: "2.1.112",
    platform: "npm",
    input: "in",
    module,
    declarations,
    verified: null,
    signature: "tool-search/scorer",
    dropped: [],
    portedKeys: 0,
    toolFields: [],
    toolFieldsRefused: [],
  };
  const cache = fresh("lift-cache-");
  keepLift(cache, "k", result);
  return { cache, entry: join(cache, "k", "lift.json") };
}

describe("the lift cache's entries", () => {
  it("one keepLift wrote is reused; one that does not parse or has a wrong field is lifted again, silently", () => {
    const { cache, entry } = kept();
    const out = fresh("out-");
    expect(reuseLift(cache, "k", out, "in")).toMatchObject({
      version: "2.1.112",
      module: join(out, "claude-code", "2.1.112", "npm", "tool-search.mjs"),
    });
    const text = readFileSync(entry, "utf8");
    const spoilt = [
      text.slice(0, -5),
      text.replace('"moduleName": "tool-search.mjs"', '"moduleName": "../x.mjs"'),
      text.replace('"platform": "npm"', '"platform": "npm/../.."'),
      text.replace('"verified": null', '"verified": { "cases": 10, "agreed": 9 }'),
      text.replace('"form": 1', '"form": "1"'),
    ];
    for (const s of spoilt) {
      expect(s).not.toBe(text);
      writeFileSync(entry, s);
      expect(reuseLift(cache, "k", out, "in")).toBeNull();
    }
  });
});
