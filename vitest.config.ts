import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { isolatedFiles } from "./test/setup/files.ts";
import { LongFilesFirst } from "./test/setup/sequencer.ts";

const include = ["test/**/*.test.ts", "src/**/*.test.ts"];

export default defineConfig({
  test: {
    // A guard against a hang, not a measure: a file's tests share the cores with three other workers and
    // their processes, and on a loaded machine a test of 5 s on its own takes four times that.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on CI's 2-core machines. Most suites wait on
    // sandboxes, child processes, PostgreSQL and Terraform rather than compute, so two workers per core
    // keep the cores busy: on 2 cores the suite took 535 s with 2 workers, 397 s with 3, 362 s with 4.
    maxWorkers: Math.min(8, 2 * availableParallelism()),
    reporters: ["default", "./test/reporters/summary-line.ts"],
    // node:sqlite announces itself as experimental on every worker start.
    execArgv: ["--disable-warning=ExperimentalWarning"],
    sequence: { sequencer: LongFilesFirst },
    // The programs the tests start as processes, built once per state of the sources (test/setup/programs.ts).
    globalSetup: ["./test/setup/programs.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include,
          exclude: isolatedFiles,
          // A worker runs file after file with the modules it has loaded: loading the kinds, the sandbox,
          // fastify and the engine again for each of ~350 files was a third of the suite's time. Each file
          // still gets its own hooks and set-up; test/setup/per-file.ts closes what a file left running.
          isolate: false,
          setupFiles: ["./test/setup/per-file.ts"],
        },
      },
      { extends: true, test: { name: "isolated", include: isolatedFiles, isolate: true } },
    ],
  },
});
