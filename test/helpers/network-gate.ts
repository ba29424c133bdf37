/**
 * Setup file: remembers the running test, so that a helper that would download (cache.ts `npmPack`) can skip
 * it under SEARCHLIFT_SKIP_REAL=1 instead of reaching for the network.
 */
import { beforeEach, type TestContext } from "vitest";

let current: TestContext | null = null;

beforeEach((ctx) => {
  current = ctx;
  return () => {
    current = null;
  };
});

/** Under SEARCHLIFT_SKIP_REAL=1, skip the running test that needs `what` from the network (throw outside a test). */
export function skipWithoutNetwork(what: string): void {
  if (process.env.SEARCHLIFT_SKIP_REAL !== "1") return;
  const why = `${what} comes from the npm registry (SEARCHLIFT_SKIP_REAL=1)`;
  if (current) current.skip(why);
  throw new Error(why);
}
