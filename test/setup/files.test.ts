import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { openSandboxes, startTestSandbox } from "../helpers/sandbox.ts";
import { isolatedFiles, longFiles, longFilesFirst } from "./files.ts";

const root = join(import.meta.dirname, "../..");
const testFiles = ["test", "src"].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => `${dir}/${file}`),
);

it("runs every file that mocks a module in a process of its own, and no other", () => {
  const mocking = testFiles.filter((file) =>
    /\bvi\.(mock|doMock)\(/.test(readFileSync(join(root, file), "utf8")),
  );
  expect(mocking.sort()).toEqual([...isolatedFiles].sort());
});

it("lists only test files that exist", () => {
  for (const file of [...isolatedFiles, ...longFiles]) expect(existsSync(join(root, file)), file).toBe(true);
  expect(new Set(longFiles).size).toBe(longFiles.length);
});

it("starts the long files first, in their list's order, and keeps the order of the others", () => {
  const [first, second] = longFiles as [string, string];
  expect(longFilesFirst(["a.test.ts", second, "b.test.ts", first], (path) => path)).toEqual([
    first,
    second,
    "a.test.ts",
    "b.test.ts",
  ]);
});

it("keeps a test sandbox on the list the per-file set-up closes, until the test closes it", async () => {
  const sb = await startTestSandbox();
  expect(openSandboxes.size).toBe(1);
  await sb.close();
  expect(openSandboxes.size).toBe(0);
});
