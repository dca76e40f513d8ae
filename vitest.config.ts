import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 20_000,
    pool: "forks",
    reporters: ["default", "./test/reporters/summary-line.ts"],
    // node:sqlite announces itself as experimental on every worker start.
    execArgv: ["--disable-warning=ExperimentalWarning"],
  },
});
