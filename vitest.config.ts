import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 20_000,
    pool: "forks",
    // node:sqlite announces itself as experimental on every worker start.
    execArgv: ["--disable-warning=ExperimentalWarning"],
  },
});
