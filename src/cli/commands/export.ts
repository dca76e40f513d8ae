/**
 * `vigil export`: every object of the account (or those the filters select) as configuration files of one
 * format, with the imports that adopt them. The account is read once into the export graph; the format's
 * writer turns the graph into files (`export-formats.ts`).
 */
import { lstat, mkdir, readdir, readFile, unlink } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { type Command, Option } from "commander";
import {
  type ExportLayout,
  exportKinds,
  readAccountGraph,
  type WrittenExport,
} from "../../engine/export/graph.ts";
import {
  FilterError,
  filterKeys,
  parseFilters,
  type Selection,
  selectObjects,
} from "../../engine/export/select.ts";
import { stateNames } from "../../gitops/export.ts";
import { writePrivateFile } from "../../private-file.ts";
import type { ConnectionOptions } from "../connection.ts";
import { CliError } from "../errors.ts";
import { type ExportFormat, exportFormats, formatNames } from "../export-formats.ts";
import { withConnection, withConnectionOptions } from "./shared.ts";

interface ExportOptions extends ConnectionOptions {
  format: keyof typeof exportFormats;
  out: string;
  filter: string[];
  splitBy: ExportLayout;
  schema?: string;
  force: boolean;
}

/** What an export leaves in its directory besides the files: which files it wrote, so `--force` can tidy up. */
export const manifestName = ".vigil-export.json";

export function registerExport(program: Command) {
  withConnectionOptions(
    program
      .command("export")
      .description("Write configuration for every object in the account, and the imports that adopt them")
      .addOption(
        new Option("--format <format>", "the configuration's format").choices(formatNames).default("yaml"),
      )
      .option("--out <dir>", "directory to write into", ".")
      .option(
        "--filter <key=values>",
        `only these objects (and what they reference); KEY is ${filterKeys.join(", ")}: kind=monitor,contact, tag=prod, name='checkout-*'; repeatable`,
        (value: string, previous: string[]) => [...previous, value],
        [] as string[],
      )
      .addOption(
        new Option("--split-by <layout>", "one file per kind, or per tag")
          .choices(["kind", "tag"])
          .default("kind"),
      )
      .option(
        "--schema <path>",
        "JSON Schema for the yaml-language-server comment (a path or URL; yaml only)",
      )
      .option(
        "--force",
        "write into a directory that already holds configuration files, replacing an earlier export",
        false,
      ),
  ).action(runExport);
}

async function runExport(options: ExportOptions): Promise<void> {
  const format: ExportFormat = exportFormats[options.format];
  if (options.schema !== undefined && options.format !== "yaml")
    throw new CliError(
      `--schema names the JSON Schema of YAML files; --format ${options.format} writes none.`,
    );
  if (!format.layouts.includes(options.splitBy))
    throw new CliError(
      `--split-by ${options.splitBy}: --format ${options.format} writes one program, its objects in the order they reference each other; use --filter tag=... to export one tag's objects.`,
    );
  let filter: ReturnType<typeof parseFilters> | undefined;
  try {
    filter = options.filter.length > 0 ? parseFilters(options.filter, exportKinds) : undefined;
  } catch (error) {
    if (error instanceof FilterError) throw new CliError(error.message);
    throw error;
  }
  const dir = resolve(options.out);
  await mkdir(dir, { recursive: true });
  const earlier = await readManifest(dir, format);
  const present = (await readdir(dir)).filter((f) => format.configFile.test(f) || f === manifestName);
  if (present.length > 0 && !options.force)
    throw new CliError(
      `${options.out} already holds ${present.join(", ")}; export into an empty directory, or pass --force to replace ${earlier.length > 0 ? "the earlier export" : "them"}.`,
    );

  // Objects the state manages keep the names it gives them: YAML files then plan against it unchanged.
  const { graph, managed, state } = await withConnection(
    options,
    "export",
    async ({ ops, reading }, store) => {
      const saved = await store.read();
      const graph = await readAccountGraph(ops, stateNames(saved));
      reading.stop();
      return { graph, managed: saved?.resources ?? {}, state: store.description };
    },
  );
  const selection = filter ? selectObjects(graph, filter) : { graph, added: [] };
  if (selection.graph.objects.length === 0)
    throw new CliError(
      filter
        ? `No object of the account matches ${filter.given.map((f) => `--filter ${f}`).join(" ")}; nothing was written.`
        : "The account holds no objects; nothing was written.",
    );
  const writer = await format.load();
  const written = writer(selection.graph, {
    layout: options.splitBy,
    ...(options.schema && { schemaRef: relativeSchema(dir, options.schema) }),
  });
  await writeFiles(dir, options, written.files, earlier);
  report(options, format, selection, written, managed, state);
}

/** Writes the export's files and its manifest, and removes the earlier export's files this one no longer writes. */
async function writeFiles(
  dir: string,
  options: ExportOptions,
  files: Record<string, string>,
  earlier: string[],
) {
  for (const [name, text] of Object.entries(files)) {
    // The files hold no credential (each is a variable), but they describe the account's private
    // endpoints and contacts: readable by their owner only until they are committed. --force replaces a
    // file (or a link planted in its place) and never writes through it.
    await writePrivateFile(join(dir, name), text);
    process.stdout.write(`Wrote ${join(options.out, name)}\n`);
  }
  // Files of the earlier export this one no longer writes (a kind or tag now empty) would still declare
  // their objects: they go.
  for (const name of earlier.filter((f) => !Object.hasOwn(files, f))) {
    const file = join(dir, name);
    if (!(await lstat(file).catch(() => undefined))) continue;
    await unlink(file);
    process.stdout.write(`Removed ${join(options.out, name)} (written by the earlier export)\n`);
  }
  await writePrivateFile(
    join(dir, manifestName),
    `${JSON.stringify({ format: options.format, files: Object.keys(files).sort() }, null, 2)}\n`,
  );
}

/** What was exported, what came along, the credentials to set, what was left out, and what to run next. */
function report(
  options: ExportOptions,
  format: ExportFormat,
  selection: Selection,
  written: WrittenExport,
  managed: Record<string, { id?: string }>,
  state: string,
) {
  const count = selection.graph.objects.length;
  process.stdout.write(`Exported ${count} objects, each with its import.\n`);
  if (selection.added.length > 0)
    process.stdout.write(
      `${selection.added.length} of them are outside the filters, exported because others reference them: ${selection.added.map((o) => written.addressOf(o)).join(", ")}.\n`,
    );
  const kept = selection.graph.objects.filter((o) => managed[o.address]?.id === o.id).length;
  if (format.keepsStateAddresses && kept > 0)
    process.stdout.write(`${kept} of them keep the addresses the state (${state}) gives them.\n`);
  if (written.variables.length > 0) {
    process.stdout.write(`${format.variablesIntro}\n`);
    for (const { name, variable } of written.variables)
      process.stdout.write(`  ${name}  (${written.addressOf(variable.object)} ${variable.member})\n`);
  }
  const leftOut = written.leftOut;
  if (leftOut.length > 0) {
    process.stdout.write(
      "Left out, since the API never shows them (the objects keep their values; add them to manage them):\n",
    );
    for (const l of leftOut) process.stdout.write(`  ${written.addressOf(l.object)} ${l.member}\n`);
  }
  process.stdout.write(`${format.nextStep(count, options.out)}\n`);
}

/**
 * The files an earlier export of this format wrote here, from its manifest. Only plain names of this format's
 * files count: a manifest is a file like any other, and must never make `--force` remove anything else.
 */
async function readManifest(dir: string, format: ExportFormat): Promise<string[]> {
  const text = await readFile(join(dir, manifestName), "utf8").catch(() => undefined);
  if (text === undefined) return [];
  let files: unknown;
  try {
    files = (JSON.parse(text) as { files?: unknown }).files;
  } catch {
    return [];
  }
  if (!Array.isArray(files)) return [];
  return files.filter(
    (f): f is string =>
      typeof f === "string" && !/[/\\]/.test(f) && !f.startsWith(".") && format.written.test(f),
  );
}

/** A schema path given from the working directory, made relative to the output directory. */
function relativeSchema(dir: string, schema: string): string {
  return /^[a-z]+:\/\//i.test(schema) ? schema : relative(dir, resolve(schema));
}
