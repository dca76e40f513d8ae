import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findConfigFiles, parseConfigFile } from "../../src/gitops/files.ts";
import { project, useSandbox } from "../cli/e2e/helpers.ts";
import { monitorsYaml } from "../cli/e2e/monitors.ts";
import { vigil } from "../cli/vigil.ts";

/**
 * Issue 25, point 8: the loader never reads a file, nor walks a directory,
 * that a symbolic link puts outside the paths it was given (the class of Argo
 * CD's CVE-2022-24348), and never quotes what is there. The walk's own links
 * are in the hostile corpus (`symbolic-links-out-of-the-repo`); here are the
 * paths given on the command line, a link swapped between finding a file and
 * reading it, and a saved plan applied after a link was added.
 */

/** What a CI runner keeps beside the checkout; no output may ever hold it. */
const secret = "RUNNER-SECRET-0123456789";
let root: string;
let repo: string;

const contactsYaml = "contacts:\n  oncall: { type: email, address: oncall@example.com }\n";

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vigil-links-"));
  repo = join(root, "repo");
  const files: Record<string, string> = {
    "runner/token.yaml": `token: ${secret}\n`,
    "shared/contacts.yaml": contactsYaml,
    "repo/monitors.yaml": monitorsYaml(1),
    "repo/releases/v2/monitors.yaml": monitorsYaml(1, "v2"),
    "team/monitors.yaml": monitorsYaml(1),
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), text);
  }
  const links: Record<string, string> = {
    "repo/token.yaml": "../runner/token.yaml",
    "repo/conf": "../runner",
    "repo/current": "releases/v2",
    "repo/spin": "spin",
    "team/contacts": "../shared",
  };
  for (const [name, target] of Object.entries(links)) await symlink(target, join(root, name));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const validate = (...paths: string[]) => vigil(["validate", ...paths], { cwd: repo });
const refusal = (...lines: string[]) =>
  [
    ...lines.map((l) => `Error: ${l}`),
    `Error: ${lines.length} problem${lines.length === 1 ? "" : "s"} in the configuration; nothing was sent to the API.`,
    "",
  ].join("\n");
const outOfCwd = (link: string, target: string) =>
  `${link}: a symbolic link out of the working directory, to "${target}"; vigil does not follow it (to read what it leads to, give that path itself)`;

describe("paths given on the command line", { timeout: 60_000 }, () => {
  it("a given file that a link takes out of the working directory is refused, naming the link", async () => {
    const run = await validate("token.yaml");
    expect(run.stderr).toBe(refusal(outOfCwd("token.yaml", "../runner/token.yaml")));
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
  });

  it("a given directory, or a path through one, that a link takes out is refused, naming the link", async () => {
    for (const given of ["conf", "conf/token.yaml", "./conf/"]) {
      const run = await validate(given);
      expect(run.stderr, given).toBe(refusal(outOfCwd("conf", "../runner")));
      expect(run.code).toBe(1);
    }
  });

  it("a given link loop is named as such", async () => {
    const run = await validate("spin");
    expect(run.stderr).toBe(refusal("spin: a symbolic link loop"));
  });

  it("a given link that stays inside is read", async () => {
    const run = await validate("current");
    expect(run.stderr, run.stderr).not.toContain("Error");
    expect(run.stdout).toBe("The configuration is valid: 1 resources in 1 file.\n");
    expect(run.code).toBe(0);
  });

  it("a path outside the working directory named by the user is read, and links into it are followed", async () => {
    // team/contacts -> ../shared
    const team = (...paths: string[]) => vigil(["validate", ...paths], { cwd: join(root, "team") });
    for (const given of [
      [".", "../shared"],
      ["monitors.yaml", "contacts", "../shared"],
    ]) {
      const run = await team(...given);
      expect(run.stderr, given.join(" ")).not.toContain("Error");
      // The linked file and the same file through the path given are one file, read once.
      expect(run.stdout, given.join(" ")).toBe("The configuration is valid: 2 resources in 2 files.\n");
    }
    // Without the outside path, the link leads out of what was given.
    expect((await team(".")).stderr).toBe(
      refusal(
        'contacts: a symbolic link out of the paths given (.), to "../shared"; vigil does not follow links that leave them',
      ),
    );
    expect((await team("monitors.yaml", "contacts")).stderr).toBe(refusal(outOfCwd("contacts", "../shared")));
  });
});

it("a file whose link was swapped after it was found is not read", async () => {
  const dir = await mkdtemp(join(tmpdir(), "vigil-swap-"));
  try {
    await writeFile(join(dir, "real.yaml"), monitorsYaml(1));
    await symlink("real.yaml", join(dir, "m.yaml"));
    const found = await findConfigFiles([dir]);
    expect(found.problems).toEqual([]);
    const m = found.files.find((f) => f.path.endsWith("m.yaml"))!;
    // Between the walk and the read, the link is made to lead out of the repository.
    await unlink(join(dir, "m.yaml"));
    await symlink(join(root, "runner/token.yaml"), join(dir, "m.yaml"));
    const { parsed, problems } = await parseConfigFile(m.path, undefined, m.identity);
    expect(parsed).toBeUndefined();
    expect(problems).toEqual([
      {
        at: expect.objectContaining({ line: 1, column: 1 }),
        message:
          "the file changed while vigil read the configuration (it is no longer the file found); run again",
      },
    ]);
    expect(JSON.stringify(problems)).not.toContain(secret);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

describe("a saved plan", { timeout: 60_000 }, () => {
  const sandbox = useSandbox();
  it("applied after a link out of the repository was added is refused, and nothing is sent", async () => {
    const p = await project(sandbox(), { "monitors.yaml": monitorsYaml(1) });
    const made = await p.run(["plan", "--out", "p.json"]);
    expect(made.code, made.stderr).toBe(0);
    await symlink(join(root, "runner/token.yaml"), join(p.dir, "leak.yaml"));
    const run = await p.run(["apply", "--plan", "p.json"]);
    expect(run.stderr).toBe(
      refusal(
        `leak.yaml: a symbolic link out of the paths given (.), to "${join(root, "runner/token.yaml")}"; vigil does not follow links that leave them`,
      ),
    );
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    expect((await p.account.get("/monitor")).body.data).toEqual([]);
  });
});
