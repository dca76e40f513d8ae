import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repositoryRoot } from "../../../tools/terraform/build.ts";
import { described, terraformWorkspace, type Workspace } from "../../helpers/terraform.ts";
import { describeWithTerraform } from "./describe.ts";

describeWithTerraform("the provider installed by terraform init from the built mirror", () => {
  let ws: Workspace;
  let dir: string;

  beforeAll(async () => {
    ws = await terraformWorkspace();
    dir = await ws.copy(join(repositoryRoot, "examples/terraform"), "example");
    await ws.ok(dir, "init", "-input=false");
  }, 60_000);
  afterAll(() => ws?.remove());

  it("serves exactly the schema of provider.json", { timeout: 30_000 }, async () => {
    const { stdout } = await ws.ok(dir, "providers", "schema", "-json");
    const committed = JSON.parse(await readFile(join(repositoryRoot, "provider.json"), "utf8"));
    expect(JSON.parse(stdout)).toEqual(committed);
  });

  it("is locked by its hash in .terraform.lock.hcl", async () => {
    const lock = await readFile(join(dir, ".terraform.lock.hcl"), "utf8");
    expect(lock).toMatch(
      /provider "registry\.terraform\.io\/vigil\/vigil" \{\n\s+version\s+= "\d+\.\d+\.\d+"/,
    );
    expect(lock).toMatch(/"h1:[A-Za-z0-9+/]+=*"/);
  });

  it("accepts examples/terraform: terraform validate passes", { timeout: 30_000 }, async () => {
    const validate = await ws.run(dir, "validate");
    expect(validate.code, described(validate)).toBe(0);
    expect(validate.stdout).toContain("The configuration is valid.");
  });

  it("examples/terraform is in terraform fmt's canonical form", async () => {
    const fmt = await ws.run(join(repositoryRoot, "examples/terraform"), "fmt", "-check", "-diff");
    expect(fmt.code, described(fmt)).toBe(0);
  });
});
