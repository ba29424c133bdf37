/**
 * The witness search on two modules written for it (samples/mcpinfo-cache): after.mjs keeps a tool's name parts
 * in a WeakMap keyed by its mcpInfo, which answers as before.mjs does for every mcpInfo that is an object and
 * throws for one that is not. The search must try such a value in the field the changed code reads, and report a
 * witness that replays differently.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffInputs } from "../../diff/diff.js";
import { sandboxScript } from "../../diff/behaviour.js";
import { runCallsOnBoth } from "../../diff/witness-run.js";
import { resultsAgree } from "../../verify/verify.js";
import { toolSearchPack } from "./index.js";

const DIR = join(import.meta.dirname, "..", "..", "..", "samples", "mcpinfo-cache");
const side = (name: string) => {
  const p = join(DIR, name);
  return { script: sandboxScript(readFileSync(p, "utf8"), p), label: name };
};

describe("witnesses of an mcpInfo that is not an object", () => {
  it("before → after: a witness with such an mcpInfo, which now throws, and it replays", async () => {
    const r = await diffInputs(join(DIR, "before.mjs"), join(DIR, "after.mjs"), { pack: toolSearchPack });
    const ws = r.behaviour.changed;
    const odd = ws.filter((w) =>
      [...w.deferred, ...w.loaded].some((t) => t.mcpInfo !== undefined && (typeof t.mcpInfo !== "object" || t.mcpInfo === null)),
    );
    expect(odd.length).toBeGreaterThan(0);
    for (const w of odd) expect(w.after).toHaveProperty("error");
    const calls = ws.map((w) => ({ fn: w.function, query: w.query, deferred: w.deferred, loaded: w.loaded }));
    const [ra, rb] = await runCallsOnBoth(side("before.mjs"), side("after.mjs"), calls);
    calls.forEach((c, i) => expect(resultsAgree(ra[i]!, rb[i]!), JSON.stringify(c)).toBe(false));
  }, 180_000);
});
