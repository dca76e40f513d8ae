import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 20_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on CI's 2-core machines. Most suites wait on
    // sandboxes, child processes and PostgreSQL rather than compute, so two workers keep both cores busy.
    maxWorkers: 2,
    reporters: ["default", "./test/reporters/summary-line.ts"],
    // node:sqlite announces itself as experimental on every worker start.
    execArgv: ["--disable-warning=ExperimentalWarning"],
  },
});
