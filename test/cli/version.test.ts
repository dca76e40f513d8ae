import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { vigil, workspace } from "./vigil.ts";

const pkg = JSON.parse(await readFile(resolve(import.meta.dirname, "../../package.json"), "utf8")) as {
  version: string;
};

describe("vigil --version and vigil version", () => {
  it("--version prints the package, Node.js and API versions, offline, and exits 0", async () => {
    const cwd = await workspace();
    const run = await vigil(["--version"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const [vigilLine, nodeLine, apiLine] = run.stdout.trimEnd().split("\n");
    expect(vigilLine).toBe(`vigil ${pkg.version}`);
    // The Node.js that runs vigil, whatever it is: the repo pins 22.
    expect(nodeLine).toMatch(/^Node\.js v22\.\d+\.\d+$/);
    expect(apiLine).toBe("Monitoring Service REST API v2");
    expect((await vigil(["-V"], { cwd })).stdout).toBe(run.stdout);
  });

  it("is a program option only: a command's own --version (state show --version N) keeps its meaning", async () => {
    const cwd = await workspace();
    const show = await vigil(["state", "show", "--version", "3"], { cwd });
    expect(show.stdout).not.toContain("Monitoring Service REST API");
    expect(show.stderr).toContain("Version 3 is not in the history");
  });

  it("version --json prints the same as one JSON object", async () => {
    const cwd = await workspace();
    const text = await vigil(["version"], { cwd });
    const json = await vigil(["version", "--json"], { cwd });
    expect(json.code).toBe(0);
    const info = JSON.parse(json.stdout) as { vigil: string; node: string; api: string };
    expect(info).toEqual({ vigil: pkg.version, node: expect.stringMatching(/^v22\./), api: "v2" });
    expect(text.stdout).toBe(`vigil ${info.vigil}\nNode.js ${info.node}\nMonitoring Service REST API v2\n`);
  });
});
