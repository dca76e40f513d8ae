import { rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { commandModules, modulesFor } from "../../src/cli/command-modules.ts";
import { sourceCommand } from "../helpers/programs.ts";
import { vigil, workspace } from "./vigil.ts";

/**
 * What a command loads before it works. Each `vigil` run is a new Node process, and most of a short run is
 * spent loading modules, so what only one command needs loads in that command: the watcher's server and
 * metrics (fastify, prom-client, OpenTelemetry) in `vigil watch`, the sandbox with `--sandbox`, PostgreSQL's
 * client with a PostgreSQL state, and undici on the first call to the API. `vigil validate`, run on every
 * pull request, loads none of them.
 *
 * What the sources load, module by module: so these run vigil from src/ (the package's bundles keep the
 * same imports lazy, tools/release/bundle.ts), where the other suites run the package's programs.
 */
const examples = resolve(import.meta.dirname, "../../examples/gitops");
const hook = `import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    process.stderr.write("loaded " + resolved.url + "\\n");
    return resolved;
  },
});
`;

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

it("vigil validate loads neither the watcher's server, the sandbox, PostgreSQL's client nor undici", async () => {
  const dir = await workspace();
  dirs.push(dir);
  await writeFile(join(dir, "trace-imports.mjs"), hook);
  const run = await vigil(["validate", examples], {
    cwd: dir,
    env: { NODE_OPTIONS: `--import ${join(dir, "trace-imports.mjs")}` },
    command: sourceCommand("vigil"),
  });
  expect(run.code, run.stderr).toBe(0);

  const loaded = run.stderr
    .split("\n")
    .filter((line) => line.startsWith("loaded file:"))
    .map((line) => line.slice("loaded ".length));
  // The trace saw the loader, the engine and the kinds: an empty list would prove nothing.
  expect(loaded.some((url) => url.endsWith("/src/gitops/load.ts"))).toBe(true);
  const packages = new Set(loaded.map((url) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]));
  expect(packages).toContain("yaml");
  for (const heavy of ["fastify", "prom-client", "@opentelemetry/api", "pg", "undici"])
    expect(packages, heavy).not.toContain(heavy);
  expect(
    loaded.filter((url) => /\/src\/(sandbox\/index|sandbox\/core\/app|watch\/run)\.ts$/.test(url)),
  ).toEqual([]);
  // Nor the schemas of what only the API's other reads answer: a configuration holds none of them.
  const readShapes =
    /\/src\/kinds\/(account|checks|events|job|instant-check|data-sources|problem-document)\.ts$/;
  expect(loaded.some((url) => url.endsWith("/src/kinds/monitor/index.ts"))).toBe(true);
  expect(loaded.filter((url) => readShapes.test(url))).toEqual([]);
});

it("vigil --version loads no command: neither the loader, the engine nor commander's other commands", async () => {
  const dir = await workspace();
  dirs.push(dir);
  await writeFile(join(dir, "trace-imports.mjs"), hook);
  const run = await vigil(["--version"], {
    cwd: dir,
    env: { NODE_OPTIONS: `--import ${join(dir, "trace-imports.mjs")}` },
    command: sourceCommand("vigil"),
  });
  expect(run.code, run.stderr).toBe(0);
  const loaded = run.stderr.split("\n").filter((line) => line.startsWith("loaded file:"));
  expect(loaded.some((url) => url.endsWith("/src/cli/version.ts"))).toBe(true);
  expect(loaded.filter((url) => /\/src\/(cli\/commands|gitops|engine|kinds|api)\//.test(url))).toEqual([]);
});

describe("the table of command modules", () => {
  it("names exactly the commands each module registers, in the order help lists them", async () => {
    for (const module of commandModules) {
      const program = new Command("vigil");
      (await module.load())(program);
      expect(program.commands.map((command) => command.name())).toEqual(module.names);
    }
    // Every command module, transformed by vitest: slow on a busy machine.
  }, 120_000);

  it("loads the module of the command named, none for the version, and all for help or an unknown name", () => {
    expect(modulesFor(["validate", "x"]).map((m) => m.names)).toEqual([["validate"]]);
    expect(modulesFor(["destroy"]).map((m) => m.names)).toEqual([["apply", "destroy", "import"]]);
    expect(modulesFor(["--version"])).toEqual([]);
    expect(modulesFor(["version", "--json"])).toEqual([]);
    for (const args of [[], ["--help"], ["help", "plan"], ["valdate"]])
      expect(modulesFor(args)).toBe(commandModules);
  });
});
