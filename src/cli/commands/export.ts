/** `vigil export`: YAML for every object in the account, with the imports that adopt them. */
import { mkdir, readdir } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { exportAccount, stateNames } from "../../gitops/export.ts";
import { writePrivateFile } from "../../private-file.ts";
import type { ConnectionOptions } from "../connection.ts";
import { CliError } from "../errors.ts";
import { withConnection, withConnectionOptions } from "./shared.ts";

interface ExportOptions extends ConnectionOptions {
  out: string;
  schema?: string;
  force: boolean;
}

export function registerExport(program: Command) {
  withConnectionOptions(
    program
      .command("export")
      .description("Write YAML for every object in the account, and the imports that adopt them")
      .option("--out <dir>", "directory to write into", ".")
      .option("--schema <path>", "JSON Schema for the yaml-language-server comment (a path or URL)")
      .option("--force", "overwrite *.yaml files already in the directory", false),
  ).action(async (options: ExportOptions) => {
    const dir = resolve(options.out);
    await mkdir(dir, { recursive: true });
    const existing = (await readdir(dir)).filter((f) => /\.ya?ml$/i.test(f));
    if (existing.length > 0 && !options.force)
      throw new CliError(
        `${options.out} already holds ${existing.join(", ")}; export into an empty directory or pass --force.`,
      );
    // Objects the state manages keep the names it gives them: the files then plan against it unchanged.
    const { result, kept, state } = await withConnection(options, "export", async ({ ops }, store) => {
      const saved = await store.read();
      const result = await exportAccount(ops, {
        known: stateNames(saved),
        ...(options.schema && { schemaRef: relativeSchema(dir, options.schema) }),
      });
      const managed = saved?.resources ?? {};
      const kept = result.imports.filter((i) => Object.hasOwn(managed, i.to) && managed[i.to]!.id === i.id);
      return { result, kept: kept.length, state: store.description };
    });
    for (const [name, text] of Object.entries(result.files)) {
      // The files hold no credential (each is a placeholder), but they describe the account's private
      // endpoints and contacts: readable by their owner only until they are committed. --force replaces a
      // file (or a link planted in its place) and never writes through it.
      await writePrivateFile(join(dir, name), text);
      process.stdout.write(`Wrote ${join(options.out, name)}\n`);
    }
    process.stdout.write(`Exported ${result.imports.length} objects, each with its import.\n`);
    if (kept > 0)
      process.stdout.write(`${kept} of them keep the addresses the state (${state}) gives them.\n`);
    if (result.variables.length > 0) {
      process.stdout.write(
        `Credentials are written as \${env:...} placeholders; set these variables before planning:\n`,
      );
      for (const v of result.variables) process.stdout.write(`  ${v.name}  (${v.address} ${v.member})\n`);
    }
    if (result.leftOut.length > 0) {
      process.stdout.write(
        "Left out, since the API never shows them (the objects keep their values; add them to manage them):\n",
      );
      for (const l of result.leftOut) process.stdout.write(`  ${l.address} ${l.member}\n`);
    }
  });
}

/** A schema path given from the working directory, made relative to the output directory. */
function relativeSchema(dir: string, schema: string): string {
  return /^[a-z]+:\/\//i.test(schema) ? schema : relative(dir, resolve(schema));
}
