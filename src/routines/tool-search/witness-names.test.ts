/**
 * The witness search on two modules written for it (samples/name-lookup): a lookup by name or alias that, in
 * after.mjs, prefers the tool of that very name for one pair of names the changed code compares. The search must
 * build the shape from those names (a tool named one holding the other as an alias, beside the tool of that name),
 * report witnesses that replay differently and the rule they show; and a refactor of the lookup that compares
 * a name too gets no witness.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffInputs } from "../../diff/diff.js";
import { sandboxScript } from "../../diff/behaviour.js";
import { runCallsOnBoth } from "../../diff/witness-run.js";
import { resultsAgree } from "../../verify/verify.js";
import { toolSearchPack } from "./index.js";

const DIR = join(import.meta.dirname, "..", "..", "..", "samples", "name-lookup");
const side = (name: string) => {
  const p = join(DIR, name);
  return { script: sandboxScript(readFileSync(p, "utf8"), p), label: name };
};

describe("witnesses of a name that is one tool's own and another's alias", () => {
  it("before → after: witnesses over such a pair that replay differently, and the rule said", async () => {
    const r = await diffInputs(join(DIR, "before.mjs"), join(DIR, "after.mjs"), { pack: toolSearchPack });
    const ws = r.behaviour.changed;
    expect(ws.length).toBeGreaterThan(0);
    const pair = ws.filter((w) => {
      const tools = [...w.deferred, ...w.loaded];
      return tools.some((t) => t.name === "Shell" && (t.aliases ?? []).includes("Run")) && tools.some((t) => t.name === "Run");
    });
    expect(pair.length).toBeGreaterThan(0);
    const calls = ws.map((w) => ({
      fn: w.function,
      query: w.query,
      deferred: w.deferred,
      loaded: w.loaded,
      ...(w.maxResults !== undefined ? { maxResults: w.maxResults } : {}),
    }));
    const [ra, rb] = await runCallsOnBoth(side("before.mjs"), side("after.mjs"), calls);
    calls.forEach((c, i) => expect(resultsAgree(ra[i]!, rb[i]!), JSON.stringify(c)).toBe(false));
    expect(r.behaviour.sentences[0]).toMatch(
      /^a name that is one tool's and another's alias now finds the tool of that name \(Run, not Shell\) in `select:` and for the description scored: /,
    );
  }, 180_000);

  it("before → refactor (the lookup as a loop, with a test of a name that changes nothing): no witness", async () => {
    const r = await diffInputs(join(DIR, "before.mjs"), join(DIR, "refactor.mjs"), { pack: toolSearchPack });
    expect(r.behaviour.changed).toEqual([]);
    expect(r.behaviour.searched).toBeGreaterThan(3000);
  }, 180_000);
});
