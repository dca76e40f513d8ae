import type { Command } from "commander";
import { isPostgresUrl, planChanges, serializePlan } from "../../engine/index.ts";
import { planInConfigTerms } from "../../gitops/present.ts";
import { describeAccountWarning, failOnAccountCheck, loadOrFail } from "../config.ts";
import type { ConnectionOptions } from "../connection.ts";
import { CliError, exitCodes } from "../errors.ts";
import { checkPlanTarget, writePlanFile } from "../plan-file.ts";
import { checkPlanFiles, checkPlanRepository, type Repository, recordSources } from "../plan-sources.ts";
import { countActions, deletionSentence } from "../render/changes.ts";
import { renderPlanMarkdown } from "../render/markdown.ts";
import {
  allowMassDeleteOption,
  callCounts,
  humanPlan,
  planHasChanges,
  printNotes,
  refuseEmptyConfig,
  sourcesOf,
  withConnection,
  withConnectionOptions,
} from "./shared.ts";

interface PlanOptions extends ConnectionOptions {
  out?: string;
  json: boolean;
  markdown: boolean;
  detailedExitcode: boolean;
  refreshOnly: boolean;
  refresh: boolean;
  target?: string[];
  allowMassDelete: boolean;
}

/**
 * The command that applies a plan saved to `file`, with the connection and state flags this plan was given
 * on its command line (what came from the environment is there again for apply), so it works as printed.
 * A token or a PostgreSQL URL is never printed: the sentence asks for the same one.
 */
function applyCommand(file: string, command: Command): string {
  const options = command.opts<PlanOptions>();
  const given = (name: keyof PlanOptions) => command.getOptionValueSource(name) === "cli";
  const words = ["vigil", "apply", "--plan", file];
  const same: string[] = [];
  if (options.sandbox) words.push("--sandbox");
  if (given("endpoint") && options.endpoint) words.push("--endpoint", options.endpoint);
  if (given("token")) same.push("--token");
  if (given("state") && options.state) {
    if (isPostgresUrl(options.state)) same.push("--state URL");
    else words.push("--state", options.state);
  }
  if (given("workspace") && options.workspace) words.push("--workspace", options.workspace);
  const quoted = words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`));
  return `${quoted.join(" ")}${same.length > 0 ? ` (and the same ${same.join(" and ")} as this plan)` : ""}`;
}

function refreshFlag(value: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new CliError(`--refresh takes true or false, not ${JSON.stringify(value)}`);
}

export function registerPlan(program: Command) {
  withConnectionOptions(
    program
      .command("plan")
      .description("Show what apply would change, field by field")
      .argument("[paths...]", "files or directories of *.yaml/*.yml (default: the current directory)")
      .option("--out <file>", "save the plan, for apply --plan")
      .option("--json", "print the plan as JSON (docs/plan-format.md)", false)
      .option("--markdown", "print a compact plan for a pull-request comment", false)
      .option("--detailed-exitcode", "exit 2 when the plan has changes", false)
      .option("--refresh-only", "show only what changed outside vigil", false)
      .option(
        "--refresh <bool>",
        "false: trust the state and delta sync instead of listing every kind",
        refreshFlag,
        true,
      )
      .option("--target <address...>", "plan only these addresses (and what they need)")
      .option(...allowMassDeleteOption),
  ).action(async (paths: string[], options: PlanOptions, command: Command) => {
    if (options.json && options.markdown)
      throw new CliError("--json and --markdown cannot be used together.");
    // Before the account is read: where the plan goes must take it, in the repository it is made for.
    let repository: Repository | undefined;
    if (options.out) {
      await checkPlanTarget(options.out);
      repository = await checkPlanRepository(options.out, paths);
    }
    const config = await loadOrFail(paths);
    if (options.out && repository) await checkPlanFiles(options.out, repository, config);
    options.configPaths = paths;
    if (!options.refreshOnly) await refuseEmptyConfig(config.resources, options, "plan");
    const plan = await withConnection(options, "plan", async ({ ops, client, reading }, store) => {
      const outcome = await planChanges({
        ops,
        store,
        desired: config.resources,
        imports: config.imports,
        refresh: options.refresh ? "full" : "state",
        ...(options.target && { targets: options.target }),
        ...(options.refreshOnly && { refreshOnly: true }),
        ...(options.allowMassDelete && { allowMassDelete: true }),
        describeWarning: describeAccountWarning(config),
        secrets: config.secrets,
      }).catch((error: unknown) => failOnAccountCheck(config, error));
      reading.stop();
      printNotes(outcome.notes);
      const calls = callCounts(client.metrics);
      // A plan to save carries where its configuration was read, so apply --plan reads the same files from
      // anywhere; --json then prints exactly what is saved.
      const plan = options.out
        ? {
            ...outcome.plan,
            config: await recordSources(config, paths, options.out, outcome.plan.lineage),
            // apply --plan then takes --sandbox too: the plan never reaches another account unasked.
            ...(options.sandbox && { sandbox: true as const }),
          }
        : outcome.plan;
      if (options.json) {
        process.stdout.write(serializePlan(plan));
        // stdout is the document; a CI log shows stderr, where deletions must not go unseen.
        const deletions = deletionSentence(countActions(outcome.plan));
        if (deletions) process.stderr.write(`Warning: ${deletions.replace(/^⚠ /, "")}\n`);
      } else if (options.markdown)
        // With the sources, as in the human plan: a reviewer sees which file:line each change comes from.
        process.stdout.write(
          renderPlanMarkdown(planInConfigTerms(outcome.plan), {
            calls,
            refreshOnly: options.refreshOnly,
            sources: sourcesOf(config),
          }),
        );
      else process.stdout.write(humanPlan(outcome.plan, config, calls, options.refreshOnly));
      return plan;
    });
    if (options.out) {
      await writePlanFile(options.out, plan);
      if (!options.json)
        process.stderr.write(
          `Saved the plan to ${options.out}; apply it with ${applyCommand(options.out, command)}\n`,
        );
    }
    if (options.detailedExitcode && planHasChanges(plan)) process.exitCode = exitCodes.changes;
  });
}
