import { defineConfig } from "vitest/config";

/**
 * Test tiers (README, "Quick start"). `npm test` runs everything. `npm run test:unit` (SEARCHLIFT_TIER=unit, with
 * SEARCHLIFT_SKIP_REAL=1: no network, no real release) leaves out what is heavy even offline, listed here: it
 * runs in a few minutes on two cores and builds no executable fixtures.
 */
export const HEAVY_OFFLINE = [
  // The mutation corpus and the fuzzers: thousands of lifts and runs.
  "test/mutation-*.test.ts",
  "test/fuzz.test.ts",
  "test/fuzz-cli.test.ts",
  // Real executables built at test time (bun --compile, postject, old Bun and Node builds): gigabytes of fixtures.
  "test/bun-build.test.ts",
  "test/bun-detect.test.ts",
  "test/node-sea.test.ts",
  "test/node-sea-blob.test.ts",
  "test/locate-samples.test.ts",
  "src/extract/elf.test.ts",
  "src/extract/macho.test.ts",
  "src/extract/pe.test.ts",
  // Hundreds of MB of crafted input, or a memory bound measured on one.
  "test/extract-out.test.ts",
  "test/carve-memory.test.ts",
  "test/host-bounds-extract.test.ts",
  "test/deep-nesting.test.ts",
  // Minutes of witness searches and sandbox runs (each of the 55 escapes through diff and track, for one).
  "test/diff-determinism.test.ts",
  "test/escapes-diff-track.test.ts",
  // End-to-end runs that lift and verify many releases each, measured in the unit tier under load (issue 42;
  // seconds per file): check's CLI (sample releases lifted, MCP servers started; 352) and library (70), track over the 8 bundled samples with every change point's
  // behaviour view (inputs 237, track 155), history over the samples packed as releases (96), track, check
  // and diff over crafted releases (input-text 117, new-tool-fields 112), and verifications stopped at their
  // time and memory bounds on purpose (verify-bounds 118). The unit tier keeps the lift, diff and track CLI
  // tests (cli, lift-cli, out-safety, verdict, parse-mode, library) and every unit test of those stages.
  "test/check.test.ts",
  "test/check-library.test.ts",
  "test/inputs.test.ts",
  "test/track.test.ts",
  "test/history.test.ts",
  "test/input-text.test.ts",
  "test/new-tool-fields.test.ts",
  "test/verify-bounds.test.ts",
  // Real releases and a browser: skipped offline anyway.
  "test/*-real.test.ts",
  "test/real-releases.test.ts",
  "test/reference-acceptance.test.ts",
  "test/check-reference.test.ts",
  "test/npm-stream-memory.test.ts",
  "test/report-browser.test.ts",
  "test/readme-library.test.ts",
];

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...(process.env.SEARCHLIFT_TIER === "unit" ? HEAVY_OFFLINE : [])],
    // Fixture builds (bun --compile, postject) and real-release downloads are slow; they are cached between runs.
    testTimeout: 600_000,
    hookTimeout: 1_200_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one file at a time on two, while most of a file's time
    // is spent waiting on the processes it starts (the CLI, the verifier, sandbox children), about half a core.
    // The unit tier runs two files at once; the full tier keeps one, for its memory bounds and fixture builds.
    ...(process.env.SEARCHLIFT_TIER === "unit" ? { maxWorkers: 2 } : {}),
    // Lets test/helpers/cache.ts skip a test that would download under SEARCHLIFT_SKIP_REAL=1, and fails a test
    // that reaches for the network then.
    setupFiles: ["test/helpers/network-gate.ts"],
    // The commands the tests run print no progress lines (stderr keeps its notes, warnings and errors, which the
    // tests read), and lift every input afresh: a lift copied from the cache would not test the lift.
    // The progress and lift-cache tests (test/cli.test.ts, test/lift-cli.test.ts) run the CLI without them, as a user does.
    env: { SEARCHLIFT_QUIET: "1", SEARCHLIFT_LIFT_CACHE: "off" },
  },
});
