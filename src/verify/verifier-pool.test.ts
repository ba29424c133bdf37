import { describe, expect, it } from "vitest";
import type { Verifier } from "./verify-process.js";
import type { VerifyResult } from "./verify.js";
import { verifierPool } from "./verifier-pool.js";

/** Stand-in verifiers, numbered in the order started; each records whether it ran and whether it was stopped unused. */
function fakes() {
  const started: Array<{ n: number; ran: boolean; killed: boolean; finish: () => void }> = [];
  const start = (): Verifier => {
    const v = { n: started.length, ran: false, killed: false, finish: () => {} };
    started.push(v);
    return {
      run: () => {
        v.ran = true;
        return new Promise<VerifyResult>((resolve) => (v.finish = () => resolve({ cases: 1, agreed: 1 } as VerifyResult)));
      },
      cancel: () => {
        if (!v.ran) v.killed = true;
      },
    };
  };
  return { started, start };
}

describe("verifierPool", () => {
  it("the lift that verifies first uses the verifier another lift started, and that lift does not stop it", async () => {
    const { started, start } = fakes();
    const pool = verifierPool(start);
    const first = pool.verifierFor("tool-search", 2000);
    const second = pool.verifierFor("tool-search", 2000);
    expect(started).toHaveLength(1);
    // The second lift reaches its verification first.
    const outcome = second.run("original", "emitted");
    expect(started).toHaveLength(1);
    expect(started[0]!.ran).toBe(true);
    // The first shares the outcome and gives its verifier back.
    first.cancel();
    expect(started[0]!.killed).toBe(false);
    started[0]!.finish();
    await outcome;
    second.cancel();
    expect(started).toHaveLength(1);
  });

  it("a lift of another program, verifying while the first is at work, starts its own", async () => {
    const { started, start } = fakes();
    const pool = verifierPool(start);
    const a = pool.verifierFor("tool-search", 2000);
    const running = a.run("a", "a'");
    // No corpus is made beside the sides at work.
    const b = pool.verifierFor("tool-search", 2000);
    expect(started).toHaveLength(1);
    const other = b.run("b", "b'");
    expect(started).toHaveLength(2);
    expect(started[1]!.ran).toBe(true);
    started[0]!.finish();
    started[1]!.finish();
    await Promise.all([running, other]);
    // Once no verifier is at work, the next lift starts one at once again.
    pool.verifierFor("tool-search", 2000);
    expect(started).toHaveLength(3);
  });

  it("a lift that needs no verification leaves the verifier it started idle, and the next lift takes it", async () => {
    const { started, start } = fakes();
    const pool = verifierPool(start);
    pool.verifierFor("tool-search", 2000).cancel();
    expect(started[0]!.killed).toBe(false);
    // The next lift starts none, and runs on the idle one.
    const next = pool.verifierFor("tool-search", 2000);
    expect(started).toHaveLength(1);
    const outcome = next.run("original", "emitted");
    expect(started[0]!.ran).toBe(true);
    started[0]!.finish();
    await outcome;
    next.cancel();
    expect(started).toHaveLength(1);
  });

  it("a verifier for another routine or corpus size is not taken", () => {
    const { started, start } = fakes();
    const pool = verifierPool(start);
    const other = pool.verifierFor("tool-search", 2000);
    void pool.verifierFor("tool-search", 80).run("o", "e");
    expect(started).toHaveLength(2);
    expect(started.map((v) => v.ran)).toEqual([false, true]);
    other.cancel();
    expect(started.map((v) => v.killed)).toEqual([false, false]);
    // The idle one is still the 2000-case corpus's: a lift of that size takes it.
    void pool.verifierFor("tool-search", 2000).run("o", "e");
    expect(started).toHaveLength(2);
    expect(started.map((v) => v.ran)).toEqual([true, true]);
  });
});
