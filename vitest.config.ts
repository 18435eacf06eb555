import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // examples import relive by its package name: tests run them against the sources
  resolve: { alias: { relive: fileURLToPath(new URL("./src/index.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    // one synthetic-world cache shared by every test file of the run
    globalSetup: ["test/support/shared-synth-cache.ts"],
    pool: "forks",
    maxWorkers: 2,
  },
});
