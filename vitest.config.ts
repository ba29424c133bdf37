import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Fixture builds (bun --compile, postject) and real-release downloads are slow; they are cached between runs.
    testTimeout: 600_000,
    hookTimeout: 1_200_000,
    pool: "forks",
    // Lets test/helpers/cache.ts skip a test that would download under SEARCHLIFT_SKIP_REAL=1.
    setupFiles: ["test/helpers/network-gate.ts"],
  },
});
