import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { artifacts, generate, repositoryRoot } from "../tools/generate.ts";
import { SDK_DIR } from "../tools/pulumi/generate-sdk.ts";

describe("generated artifacts", () => {
  for (const artifact of artifacts) {
    it(`${artifact.path} is up to date`, async () => {
      const committed = await readFile(join(repositoryRoot, artifact.path), "utf8").catch(() => undefined);
      if (committed !== artifact.render()) expect.fail(`${artifact.path} is stale: run npm run generate`);
    });
  }

  it(`${SDK_DIR} holds only generated files (none left from a kind or function that is gone)`, async () => {
    const files = await readdir(join(repositoryRoot, SDK_DIR), { recursive: true, withFileTypes: true });
    const present = files
      .filter((f) => f.isFile())
      .map((f) => join(f.parentPath, f.name).slice(repositoryRoot.length + 1))
      .sort();
    expect(present).toEqual(
      artifacts
        .map((a) => a.path)
        .filter((p) => p.startsWith(`${SDK_DIR}/`))
        .sort(),
    );
  });

  it("npm run generate writes each artifact as rendered, JSON ones pretty with a trailing newline", async () => {
    const root = await mkdtemp(join(tmpdir(), "vigil-generate-"));
    try {
      expect(await generate(root)).toEqual(artifacts.map((a) => a.path));
      for (const artifact of artifacts) {
        const text = await readFile(join(root, artifact.path), "utf8");
        expect(text).toBe(artifact.render());
        expect(text.endsWith("\n")).toBe(true);
        if (!artifact.path.endsWith(".json")) continue;
        expect(text.endsWith("}\n")).toBe(true);
        expect(text.split("\n")[1]).toMatch(/^ {2}"/);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("renders the same text every time", () => {
    for (const artifact of artifacts) expect(artifact.render()).toBe(artifact.render());
  });
});
