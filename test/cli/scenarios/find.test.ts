import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findTestFiles } from "../../../src/cli/scenarios/read.ts";
import { removeRepos, repo } from "./scenarios-setup.ts";

/** Which files `vigil test` takes as test files: `*.test.yaml` under the paths, or what `--tests GLOB` matches. */
afterAll(removeRepos);

const files = {
  "config.yaml": "contacts: {}\n",
  "tests/a.test.yaml": "scenarios: []\n",
  "b.Test.yml": "scenarios: []\n",
  ".hidden/c.test.yaml": "scenarios: []\n",
  "node_modules/pkg/d.test.yaml": "scenarios: []\n",
  "scenarios/e.yaml": "scenarios: []\n",
  "scenarios/.f.yaml": "scenarios: []\n",
};

describe("test files", () => {
  it("are the *.test.yaml under the paths, hidden directories and node_modules skipped", async () => {
    const dir = await repo(files);
    const found = await findTestFiles([dir]);
    expect(found.files.map((f) => f.slice(f.indexOf(dir) + dir.length + 1))).toEqual([
      "b.Test.yml",
      "tests/a.test.yaml",
    ]);
    expect(found.real.size).toBe(2);
    expect((await findTestFiles([join(dir, "scenarios")])).problems).toEqual([
      {
        message: `no test files (*.test.yaml) under ${join(dir, "scenarios")}; name scenario files so, or pick them with --tests GLOB`,
      },
    ]);
  });

  it("are what --tests matches from the working directory, ./ included, hidden files and node_modules skipped", async () => {
    const dir = await repo(files);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect((await findTestFiles(["."], "./scenarios/*.yaml")).files).toEqual(["scenarios/e.yaml"]);
      expect((await findTestFiles(["."], "**/*.test.yaml")).files).toEqual(["tests/a.test.yaml"]);
      expect((await findTestFiles(["."], "nothing/*.yaml")).problems).toEqual([
        { message: "--tests nothing/*.yaml matches no file" },
      ]);
    } finally {
      process.chdir(cwd);
    }
  });
});
