/**
 * The docs' walkthroughs work as written: each sets what its example needs before the command that needs
 * it, read from the example itself, so an example that gains a variable fails here until its walkthrough
 * says how to set it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repositoryRoot } from "../tools/generate.ts";

const read = (path: string) => readFileSync(join(repositoryRoot, path), "utf8");

/** The shell blocks of a page that contain `marker`. */
function shellBlocks(page: string, marker: string): string[] {
  return [...read(page).matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((b) => b.includes(marker));
}

describe("docs/terraform.md", () => {
  it("exports a TF_VAR_ for every variable of examples/terraform without a default, before terraform runs", () => {
    const variables = [...read("examples/terraform/variables.tf").matchAll(/variable "(\w+)" \{([^}]*)\}/g)]
      .filter(([, , body]) => !/\bdefault\s*=/.test(body!))
      .map(([, name]) => name!);
    expect(variables.length).toBeGreaterThan(0);
    const blocks = shellBlocks("docs/terraform.md", "cd examples/terraform");
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const before = block.slice(0, block.indexOf("terraform apply"));
      for (const name of variables) expect(before, block).toMatch(new RegExp(`\\bTF_VAR_${name}=\\S`));
    }
  });
});

describe("docs/pulumi.md", () => {
  it("logs in to a backend and sets every secret examples/pulumi requires, before pulumi up", () => {
    const required = [
      ...read("examples/pulumi/index.ts").matchAll(/config\.require(?:Secret)?\("(\w+)"\)/g),
    ].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(0);
    for (const page of ["docs/pulumi.md", "examples/pulumi/README.md"]) {
      const blocks = shellBlocks(page, "pulumi stack init");
      expect(blocks.length, page).toBeGreaterThan(0);
      for (const block of blocks) {
        const login = block.indexOf("pulumi login");
        expect(login, `${page}\n${block}`).toBeGreaterThanOrEqual(0);
        expect(login).toBeLessThan(block.indexOf("pulumi stack init"));
        const before = block.slice(0, block.indexOf("pulumi up"));
        for (const key of required)
          expect(before, `${page}: ${key}`).toMatch(new RegExp(`pulumi config set [^\\n]*\\b${key}\\b`));
      }
    }
  });
});

describe("docs/cli.md", () => {
  it("does not say that a saved plan carries --sandbox: apply --plan is given its connection again", () => {
    const cli = read("docs/cli.md");
    expect(cli).not.toContain("`--sandbox` are the plan's too");
    expect(cli).toContain("A saved plan does not carry its connection");
    expect(cli).toContain("vigil apply --plan plan.json --sandbox");
  });
});
