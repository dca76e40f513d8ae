import { stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import type { Command } from "commander";
import type { DesiredResource } from "../../engine/model.ts";
import { closest, confirmableContactTypes } from "../../kinds/index.ts";
import { diffIsEmpty, diffRoutes, type RoutingMatrix, routingMatrix } from "../../routing/index.ts";
import { loadOrFail } from "../config.ts";
import { CliError, exitCodes } from "../errors.ts";
import {
  diffJson,
  matrixJson,
  renderDiff,
  renderDiffMarkdown,
  renderMatrix,
  renderMatrixMarkdown,
} from "../render/routes.ts";
import { stylerFor } from "../render/style.ts";

interface RoutesOptions {
  json: boolean;
  markdown: boolean;
  base?: string;
  detailedExitcode: boolean;
  confirmed?: string[];
}

export function registerRoutes(program: Command) {
  program
    .command("routes")
    .description("Show who each monitor's alerts reach, offline, or how a change moves them (--base)")
    .argument("[paths...]", "files or directories of *.yaml/*.yml (default: the current directory)")
    .option("--json", "print the routes as JSON (docs/testing.md)", false)
    .option("--markdown", "print Markdown for a pull-request comment", false)
    .option(
      "--base <dir>",
      "compare with the configuration at the same paths under DIR (the main branch's checkout, say)",
    )
    .option("--detailed-exitcode", "with --base: exit 2 when who gets paged changes", false)
    .option(
      "--confirmed <names...>",
      "the only email, sms and voice contacts taken as confirmed (default: all of them); comma-separated or repeated",
    )
    .action(async (paths: string[], options: RoutesOptions) => {
      if (options.json && options.markdown)
        throw new CliError("--json and --markdown cannot be used together.");
      if (options.detailedExitcode && options.base === undefined)
        throw new CliError(
          "--detailed-exitcode needs --base: it says whether the routes changed from the base.",
        );
      const given = paths.length > 0 ? paths : ["."];
      const basePaths = options.base === undefined ? undefined : await baseLocations(options.base, given);
      const config = await loadOrFail(given);
      const confirmed = options.confirmed && confirmedNames(options.confirmed, config.resources);
      const matrixOf = (resources: readonly DesiredResource[]) =>
        routingMatrix(resources, { ...(confirmed && { confirmed: new Set(confirmed) }) });
      const matrix = matrixOf(config.resources);
      if (basePaths === undefined) {
        printMatrix(matrix, options, confirmed);
        return;
      }
      const base = await loadBase(basePaths);
      const diff = diffRoutes(matrixOf(base), matrix);
      if (options.json) process.stdout.write(`${JSON.stringify(diffJson(diff), null, 2)}\n`);
      else if (options.markdown) process.stdout.write(renderDiffMarkdown(diff));
      else process.stdout.write(renderDiff(diff, stylerFor(process.stdout)));
      if (options.detailedExitcode && !diffIsEmpty(diff)) process.exitCode = exitCodes.changes;
    });
}

function printMatrix(matrix: RoutingMatrix, options: RoutesOptions, confirmed: string[] | undefined) {
  const note = confirmed
    ? `email, sms and voice contacts taken as confirmed: ${confirmed.join(", ") || "none"}`
    : "every contact taken as confirmed (--confirmed names the ones that are)";
  if (options.json)
    process.stdout.write(`${JSON.stringify(matrixJson(matrix, confirmed ?? "all"), null, 2)}\n`);
  else if (options.markdown) process.stdout.write(renderMatrixMarkdown(matrix, note));
  else process.stdout.write(renderMatrix(matrix, stylerFor(process.stdout), note));
}

/**
 * The base's paths: each relative path given, under DIR (no path: DIR itself), so that `vigil routes
 * examples/gitops --base ../main` compares the same directory of two checkouts.
 */
async function baseLocations(dir: string, paths: readonly string[]): Promise<string[]> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory())
    throw new CliError(`--base ${dir}: no such directory; it takes the checkout to compare with.`);
  const absolute = paths.filter((p) => isAbsolute(p));
  if (absolute.length > 0)
    throw new CliError(
      `--base reads the same paths under ${dir}, so the paths must be relative; ${absolute.join(", ")} is not.`,
    );
  return paths.map((p) => join(dir, p));
}

/**
 * The base configuration. Paths the base does not have are a configuration that did not exist yet (the
 * change adds it): every route is then new. Anything else wrong with it is an error, as for the paths given.
 */
async function loadBase(paths: readonly string[]): Promise<DesiredResource[]> {
  const present: string[] = [];
  for (const p of paths) if (await stat(p).catch(() => undefined)) present.push(p);
  const missing = paths.filter((p) => !present.includes(p));
  if (missing.length > 0)
    process.stderr.write(`Note: the base has no ${missing.join(", ")}; its routes count as new.\n`);
  if (present.length === 0) return [];
  try {
    return (await loadOrFail(present)).resources;
  } catch (error) {
    if (error instanceof CliError) throw new CliError(`The base (--base): ${error.message}`);
    throw error;
  }
}

/** `--confirmed` names: contacts of the configuration, comma-separated or repeated. */
function confirmedNames(given: readonly string[], resources: readonly DesiredResource[]): string[] {
  const names = given
    .flatMap((g) => g.split(","))
    .map((n) => n.trim())
    .filter((n) => n !== "");
  const contacts = new Map(
    resources
      .filter((r) => r.kind === "contact")
      .map((r) => [r.address.slice(r.address.indexOf(".") + 1), String(r.members.type)]),
  );
  const confirmable = [...contacts].filter(([, type]) =>
    (confirmableContactTypes as readonly string[]).includes(type),
  );
  for (const name of names) {
    if (contacts.has(name)) continue;
    const hint = closest(name, [...contacts.keys()]);
    throw new CliError(
      `--confirmed: ${JSON.stringify(name)} is not a contact of the configuration; its email, sms and voice contacts: ${confirmable.map(([n]) => n).join(", ") || "none"}${hint ? `; did you mean "${hint}"?` : ""}`,
    );
  }
  return [...new Set(names)];
}
