import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // examples import relive by its package name: tests run them against the sources
  resolve: { alias: { relive: fileURLToPath(new URL("./src/index.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    // one temp directory per run, deleted at its end (TMPDIR points into it), and in it one
    // synthetic-world cache shared by every test file of the run
    globalSetup: ["test/support/test-temp-root.ts", "test/support/shared-synth-cache.ts"],
    pool: "forks",
    maxWorkers: 2,
  },
});
