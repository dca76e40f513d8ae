/**
 * `apply`, `destroy` and `import`: plan, show, ask (or take --auto-approve),
 * then apply exactly what was shown, under one hold of the state lock.
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import {
  ApplyInterruptedError,
  type ApplyResult,
  applyChanges,
  assertPlanUntampered,
  type DesiredResource,
  type GeneratedValue,
  isPostgresUrl,
  type Plan,
  type ProgressEvent,
  RefreshOnlyPlanError,
  StalePlanError,
  StateNotSavedError,
} from "../../engine/index.ts";
import type { LoadedConfig } from "../../gitops/load.ts";
import { describeAccountWarning, failOnAccountCheck, loadAddresses, loadOrFail } from "../config.ts";
import {
  type ConnectionOptions,
  chooseSandboxState,
  localStateBase,
  readSavedState,
  withStateStore,
} from "../connection.ts";
import { CliError, exitCodes, failureLines, stateNotSavedMessage } from "../errors.ts";
import { exitAtOnce, interruptedEnding, onInterrupt, wasInterrupted } from "../interrupt.ts";
import { outputsPath, saveOutput } from "../outputs.ts";
import { readPlanFile } from "../plan-file.ts";
import { confinedSourcesDir, sourceChanges } from "../plan-sources.ts";
import { type Answer, confirm } from "../prompt.ts";
import { type CallCounts, callsLine } from "../render/changes.ts";
import { createProgress, type Progress } from "../render/progress.ts";
import { colorEnabled } from "../render/style.ts";
import {
  allowMassDeleteOption,
  callCounts,
  humanPlan,
  planHasChanges,
  printNotes,
  refuseEmptyConfig,
  withConnection,
  withConnectionOptions,
} from "./shared.ts";

interface ApplyOptions extends ConnectionOptions {
  autoApprove: boolean;
  plan?: string;
  allowMassDelete?: boolean;
}

const interactive = () => Boolean(process.stdin.isTTY && process.stdout.isTTY);

/** Without a terminal there is no one to answer the question: refuse before anything is read or sent. */
function requireApproval(command: string, options: { autoApprove: boolean }): void {
  if (!options.autoApprove && !interactive())
    throw new CliError(
      `vigil ${command} needs --auto-approve when it does not run in a terminal: there is no one to confirm the plan. Review the plan first (vigil plan), then run vigil ${command} --auto-approve.`,
    );
}

interface Run {
  command: string;
  options: ConnectionOptions & { autoApprove: boolean };
  config?: LoadedConfig;
  desired: readonly DesiredResource[];
  imports?: readonly { address: string; id: string }[];
  targets?: readonly string[];
  saved?: Plan;
  question: string;
  /** Whether a plan may be applied without asking even without --auto-approve (it changes only the state). */
  askUnless?: (plan: Plan) => boolean;
  /** See `EngineOptions`: `destroy` lifts the deletion guards, `allowMassDelete` the mass-deletion one. */
  destroy?: boolean;
  allowMassDelete?: boolean;
}

async function run(r: Run): Promise<void> {
  let progress: Progress | undefined;
  let calls: CallCounts | undefined;
  const { generated, onGenerated } = generatedSaver(outputsPath(localStateBase(r.options)));
  // Why the plan was not approved: an answer other than yes, Ctrl+C or the end of the input.
  let refusal: Exclude<Answer, "yes"> | undefined;
  // Until the writes start, Ctrl+C ends the command (interrupt.ts); from then on it stops them.
  const stop = new AbortController();
  let forgetStop: (() => void) | undefined;
  let planned = 0;
  let stateDescription = "";
  const startWriting = (plan: Plan) => {
    planned = plan.actions.filter((a) => a.action !== "no-op" && !a.cascadedBy).length;
    if (planned > 0)
      progress = createProgress({
        stream: process.stdout,
        total: planned,
        color: colorEnabled(process.stdout),
      });
    forgetStop = stopWritesOnInterrupt(stop);
  };
  // Reading stops before the plan is printed: its line would share the terminal with it.
  const outcome = await withConnection(r.options, r.command, async ({ ops, client, reading }, store) => {
    stateDescription = store.description;
    if (r.saved) {
      reading.stop();
      process.stdout.write(humanPlan(r.saved, r.config, callCounts(client.metrics)));
      startWriting(r.saved);
    }
    const result = await applyChanges({
      ops,
      store,
      desired: r.desired,
      ...(r.imports && { imports: r.imports }),
      ...(r.targets && { targets: r.targets }),
      ...(r.saved && { plan: r.saved }),
      ...(r.destroy && { destroy: true }),
      ...(r.allowMassDelete && { allowMassDelete: true }),
      describeWarning: describeAccountWarning(r.config),
      ...(r.config && { secrets: r.config.secrets }),
      onProgress: (event: ProgressEvent) => progress?.event(event),
      onGenerated,
      signal: stop.signal,
      approve: async (plan) => {
        reading.stop();
        process.stdout.write(humanPlan(plan, r.config, callCounts(client.metrics)));
        if (!planHasChanges(plan)) return true;
        if (!r.options.autoApprove && !r.askUnless?.(plan)) {
          requireApproval(r.command, r.options);
          const answer = await confirm(r.question);
          if (answer !== "yes") {
            refusal = answer;
            return false;
          }
        }
        // Ctrl+C came as the plan was approved: the command is ending, and writes nothing.
        if (wasInterrupted()) return interruptedEnding();
        startWriting(plan);
        return true;
      },
    }).catch((error: unknown) => failOnAccountCheck(r.config, error));
    calls = callCounts(client.metrics);
    return result;
  })
    .catch((error: unknown) => {
      if (error instanceof ApplyInterruptedError) return error;
      if (!(error instanceof StateNotSavedError)) throw error;
      // What was done is shown as it went; what failed of itself, and the credentials saved, are told too,
      // then the lost state once.
      progress?.finish();
      for (const line of generated) process.stdout.write(`${line}\n`);
      for (const f of error.result?.failures ?? [])
        process.stderr.write(`${failureLines(f, r.config?.locate).join("\n")}\n`);
      throw new CliError(stateNotSavedMessage(error, r.command));
    })
    .finally(() => forgetStop?.());
  if (outcome instanceof ApplyInterruptedError) {
    progress?.finish();
    for (const line of generated) process.stdout.write(`${line}\n`);
    const result = outcome.result ?? { done: [], failures: [], cascadeMismatches: [] };
    for (const f of result.failures)
      process.stderr.write(`${failureLines(f, r.config?.locate).join("\n")}\n`);
    process.stdout.write(`${interruptedSummary(r.command, result, planned, stateDescription)}\n`);
    process.exitCode = exitCodes.interrupted;
    return;
  }
  progress?.finish();
  printNotes(outcome.notes);
  for (const line of generated) process.stdout.write(`${line}\n`);
  if (!outcome.approved) cancelled(r.command, refusal);
  else reportResult(r, outcome.result, calls);
  // Ctrl+C came when every write had already started: all ended, and the run says it was interrupted.
  if (stop.signal.aborted) process.exitCode = exitCodes.interrupted;
}

/** Generated credentials, saved the moment the create answers (the only answer that shows it), and never printed. */
function generatedSaver(outputs: string): {
  generated: string[];
  onGenerated: (g: GeneratedValue) => Promise<void>;
} {
  const generated: string[] = [];
  const onGenerated = async (g: GeneratedValue) => {
    try {
      await saveOutput(outputs, g);
      generated.push(
        `${g.address}: the service generated its ${g.member}, shown only once; saved to ${outputs} (mode 0600, keep it out of Git). Print it with: vigil output ${g.address} ${g.member} --show-secrets`,
      );
    } catch (error) {
      generated.push(
        `${g.address}: the service generated its ${g.member}, but it could not be saved to ${outputs} (${(error as Error).message}); rotate it to get a new one.`,
      );
    }
  };
  return { generated, onGenerated };
}

/** A plan not approved: nothing changed, and the exit code says why. */
function cancelled(command: string, refusal: Exclude<Answer, "yes"> | undefined): void {
  const what = command === "destroy" ? "Destroy" : "Apply";
  const why = refusal === "ended" ? ": the input ended before an answer" : "";
  process.stdout.write(`${what} cancelled${why}. Nothing was changed.\n`);
  // As a shell reports a command ended by Ctrl+C (128 + SIGINT); an input that ends is an error.
  if (refusal === "interrupted") process.exitCode = exitCodes.interrupted;
  else if (refusal === "ended") process.exitCode = exitCodes.error;
}

/** What the apply did and what failed, and what the whole run cost against the account's quota. */
function reportResult(r: Run, result: ApplyResult, calls: CallCounts | undefined): void {
  const { done, failures, cascadeMismatches } = result;
  for (const m of cascadeMismatches) process.stderr.write(`Warning: ${m}\n`);
  for (const f of failures) process.stderr.write(`${failureLines(f, r.config?.locate).join("\n")}\n`);
  const summary = appliedSummary(done, failures.length);
  if (failures.length > 0) {
    process.stdout.write(`Apply finished with ${failures.length} failure(s): ${summary}.\n`);
    process.exitCode = exitCodes.error;
  } else process.stdout.write(`Apply complete: ${summary}.\n`);
  // The plan's reads and the apply's calls.
  if (calls) process.stdout.write(`${callsLine(calls)} in all.\n`);
}

/**
 * Once the writes start, Ctrl+C stops them rather than the process: no write starts, those under way end
 * and are saved in the state, and the lock is released (the engine's ApplyInterruptedError). A second
 * Ctrl+C exits at once, as Terraform's does.
 */
function stopWritesOnInterrupt(stop: AbortController): () => void {
  return onInterrupt(() => {
    if (stop.signal.aborted)
      exitAtOnce(
        `The writes under way stay pending in the state's journal, and the next run settles them, as after a killed run (docs/state.md, "The journal").`,
      );
    stop.abort();
    process.stderr.write(
      "\nInterrupted: no write starts from now; waiting for the writes under way to end and be saved (Ctrl+C again to exit at once).\n",
    );
  });
}

/** `Apply interrupted: 2 created; 3 planned changes were not started. …` */
function interruptedSummary(command: string, result: ApplyResult, planned: number, state: string): string {
  const what = command === "destroy" ? "Destroy" : "Apply";
  const made = madeCounts(result.done);
  const settled = result.done.length + result.failures.length;
  const left = Math.max(0, planned - settled);
  const none = made.length === 0 && result.failures.length === 0;
  const head = none
    ? `${what} interrupted before any write: nothing was changed.`
    : `${what} interrupted: ${made.length > 0 ? made.join(", ") : "nothing applied"}${result.failures.length > 0 ? `, ${result.failures.length} failed` : ""}; ${left} planned change${left === 1 ? " was" : "s were"} not started. What was written is saved in the state (${state}).`;
  return `${head} The state's lock is released: run vigil ${command} again to make ${none ? "the changes" : "the rest"}.`;
}

/** `2 created, 1 deleted`; "nothing to do" would misread a run where everything planned failed. */
export function appliedSummary(done: ApplyResult["done"], failures: number): string {
  const parts = madeCounts(done);
  return parts.length > 0 ? parts.join(", ") : failures > 0 ? "nothing applied" : "nothing to do";
}

/** `["2 created", "1 deleted"]`: what was done, by action, in the order it was done. */
function madeCounts(done: ApplyResult["done"]): string[] {
  const counts = new Map<string, number>();
  for (const d of done) if (d.action !== "no-op") counts.set(d.action, (counts.get(d.action) ?? 0) + 1);
  return [...counts].map(([action, n]) => `${n} ${pastTense[action] ?? action}`);
}

const pastTense: Record<string, string> = {
  create: "created",
  update: "updated",
  replace: "replaced",
  delete: "deleted",
  forget: "forgotten",
  import: "imported",
};

const pathsArgument = [
  "[paths...]",
  "files or directories of *.yaml/*.yml (default: the current directory)",
] as const;

export function registerApply(program: Command) {
  withConnectionOptions(
    program
      .command("apply")
      .description("Make the account match the configuration")
      .argument(...pathsArgument)
      .option("--plan <file>", "apply a plan saved by vigil plan --out (refused if anything changed since)")
      .option("--auto-approve", "apply without asking", false)
      .option(...allowMassDeleteOption),
  ).action(async (paths: string[], options: ApplyOptions) => {
    // A saved plan was reviewed when it was made: it needs no second approval.
    if (!options.plan) requireApproval("apply", options);
    const { config, saved } = options.plan
      ? await openSavedPlan(options.plan, paths, options)
      : { config: await loadOrFail(paths), saved: undefined };
    if (!saved) options.configPaths = paths;
    // A saved plan was guarded when it was made. An edited one is refused before it is shown or any call
    // is made (the engine checks again under the lock).
    if (saved)
      assertPlanUntampered(saved, await readSavedState(options, "apply"), config.resources, config.imports);
    else await refuseEmptyConfig(config.resources, options, "apply");
    await run({
      command: "apply",
      options,
      config,
      desired: config.resources,
      imports: config.imports,
      ...(saved && { saved }),
      ...(options.allowMassDelete && { allowMassDelete: true }),
      question: "Do you want to apply these changes?",
    });
  });

  withConnectionOptions(
    program
      .command("destroy")
      .description("Delete what the state manages (with paths: only what those files declare)")
      .argument(...pathsArgument)
      .option("--auto-approve", "destroy without asking", false),
  ).action(async (paths: string[], options: ApplyOptions) => {
    requireApproval("destroy", options);
    // With paths, only what they declare goes (and what nests under it); protect still holds.
    let targets: string[] | undefined;
    // Those paths choose what goes, and the configuration whose sandbox state it is in.
    if (paths.length > 0) options.configPaths = paths;
    else chooseSandboxState(options);
    if (paths.length > 0) {
      const declared = await loadAddresses(paths);
      // A resource of those files that was never applied has nothing to destroy.
      const managed = (await withStateStore(options, "destroy", (store) => store.read()))?.resources ?? {};
      targets = declared.filter((a) => managed[a]);
      if (targets.length === 0) {
        process.stdout.write(
          "Nothing to destroy: the state manages none of the resources those files declare.\n",
        );
        return;
      }
    }
    await run({
      command: "destroy",
      options,
      desired: [],
      destroy: true,
      ...(targets && { targets }),
      question: "Do you really want to destroy these objects? There is no undo.",
    });
  });

  withConnectionOptions(
    program
      .command("import")
      .description("Bring an existing object under an address of the configuration")
      .argument("<address>", "address declared in the configuration, e.g. monitors.checkout-api")
      .argument("<id>", "the existing object's id")
      .argument(...pathsArgument)
      .option("--auto-approve", "apply the import's changes without asking", false),
  ).action(async (address: string, id: string, paths: string[], options: ApplyOptions) => {
    const config = await loadOrFail(paths);
    options.configPaths = paths;
    if (!config.resources.some((r) => r.address === address))
      throw new CliError(
        `${address} is not declared in the configuration; declare it first, then import ${id} into it.`,
      );
    await run({
      command: "import",
      options,
      config,
      desired: config.resources,
      imports: [...config.imports.filter((i) => i.address !== address), { address, id }],
      targets: [address],
      question: "The import also changes the object to match the configuration. Apply?",
      // An import that changes nothing in the account only writes the state.
      askUnless: (plan) =>
        plan.actions.every((a) => a.action === "no-op" || (a.action === "import" && a.changes.length === 0)),
    });
  });
}

/**
 * A saved plan and the configuration it was made from: read from the directory and paths the plan
 * recorded, wherever vigil runs now, and refused as stale when a file changed since. The run then works
 * in that directory, so the default state and `--sandbox` are the plan's too; a `--state` file given
 * here is taken from here.
 */
async function openSavedPlan(
  file: string,
  paths: readonly string[],
  options: ConnectionOptions,
): Promise<{ config: LoadedConfig; saved: Plan }> {
  const saved = await readPlanFile(file);
  // Refused before it is shown: printed as an apply plan first, its drift read as changes about to be made.
  if (saved.refreshOnly) throw new RefreshOnlyPlanError();
  refuseOtherConnection(saved, file, options);
  const sources = saved.config;
  // A plan saved without its sources (by an earlier vigil) reads the configuration where it always did.
  if (!sources) {
    options.configPaths = paths;
    return { config: await loadOrFail(paths), saved };
  }
  // Before any of its paths is read or shown: they must stay in the plan file's repository.
  const dir = await confinedSourcesDir(sources, file);
  if (paths.length > 0)
    throw new CliError(
      `apply --plan reads the configuration the plan was made from (${sources.paths.join(", ")} in ${dir}); give no paths with it.`,
    );
  if (options.state && !isPostgresUrl(options.state)) options.state = resolve(options.state);
  try {
    process.chdir(dir);
  } catch (error) {
    throw new CliError(
      `The plan ${file} was made in ${dir}, which cannot be entered (${(error as NodeJS.ErrnoException).code}); make a new plan.`,
    );
  }
  const config = await loadOrFail(sources.paths);
  options.configPaths = sources.paths;
  const changed = await sourceChanges(sources, config, saved.lineage);
  if (changed.length > 0) throw new StalePlanError(changed);
  return { config, saved };
}

/**
 * A plan made on the embedded sandbox is applied there, and only with `--sandbox`; a plan made against an
 * endpoint is never applied to the embedded sandbox. Said before anything is read or sent.
 */
function refuseOtherConnection(saved: Plan, file: string, options: ConnectionOptions): void {
  if (saved.sandbox && !options.sandbox)
    throw new CliError(
      `The plan ${file} was made on the embedded sandbox (vigil plan --sandbox): apply it there with vigil apply --plan ${file} --sandbox. Nothing was read or sent.`,
    );
  // A plan without `config` was saved by an earlier vigil, which did not record the sandbox.
  if (!saved.sandbox && saved.config && options.sandbox)
    throw new CliError(
      `The plan ${file} was made against an API endpoint, not the embedded sandbox: apply it without --sandbox, with the endpoint and token it was made with. Nothing was read or sent.`,
    );
}
