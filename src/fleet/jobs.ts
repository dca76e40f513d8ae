/**
 * What a fleet job carries and answers. A job carries the account's configuration as it was read when the
 * job was enqueued (the files' text, relative to the fleet file), so every worker applies exactly what
 * `vigil fleet apply` read, wherever it runs. It never carries a secret: the token, and any `${env:...}` of
 * the configuration, are filled in by the worker from its own environment (docs/fleet.md, "Secrets").
 */
import { readFile } from "node:fs/promises";
import { relative, sep } from "node:path";
import { findConfigFiles } from "../gitops/files.ts";
import type { Fleet, FleetAccount, Setting } from "./fleet-file.ts";

export type JobAction = "apply" | "plan" | "refresh";

export interface FleetJob {
  account: string;
  action: JobAction;
  /** The `vigil fleet` run that enqueued it (absent for a scheduled drift check). */
  run?: string;
  endpoint?: Setting;
  token: { env: string };
  /** The paths as the fleet file names them, and each file under them with its text. */
  paths: string[];
  files: { path: string; text: string }[];
  /** For a drift check: whether to apply the configuration again when drift is found. */
  heal?: boolean;
  /** For a scheduled drift check: the variable holding the account's webhook secret (POST /events/<account>). */
  webhookSecret?: { env: string };
}

/** What a job answers (pg-boss stores it as the job's output). */
export interface JobResult {
  account: string;
  action: JobAction;
  ok: boolean;
  created: number;
  updated: number;
  deleted: number;
  /** Writes that failed (apply), or 1 for a job that failed as a whole. */
  failed: number;
  /** A plan's or drift check's changes; for a drift check, the drifted resources. */
  changes?: number;
  /** A drift check's drifted resources (their addresses, `monitors.web`), the first 50. */
  drifted?: string[];
  /** Why the account failed, in the words the CLI would say it (no secret, no stack trace). */
  message?: string;
  /** The plan, as JSON (docs/plan-format.md), for `vigil fleet plan`. */
  plan?: unknown;
  /** Who ran it: `host pid N`. */
  worker: string;
  startedAt: string;
  finishedAt: string;
}

const portable = (path: string) => (sep === "/" ? path : path.split(sep).join("/"));

/**
 * The job of one account: its configuration's files read now. A file that cannot be found or read is the
 * account's own failure, said when its job runs (the loader reports it the same way from the worker).
 */
export async function jobFor(
  fleet: Fleet,
  account: FleetAccount,
  action: JobAction,
  run?: string,
): Promise<{ job: FleetJob; problems: string[] }> {
  const found = await findConfigFiles(account.paths);
  const files: FleetJob["files"] = [];
  for (const f of found.files)
    files.push({ path: portable(relative(fleet.dir, f.path)), text: await readFile(f.path, "utf8") });
  return {
    job: {
      account: account.name,
      action,
      ...(run && { run }),
      ...(account.endpoint && { endpoint: account.endpoint }),
      token: account.token,
      paths: account.paths.map((p) => portable(relative(fleet.dir, p)) || "."),
      files,
      ...(account.watch && { heal: account.watch.heal }),
      ...(account.watch?.webhookSecret && { webhookSecret: account.watch.webhookSecret }),
    },
    problems: found.problems.map((p) => p.replaceAll(`${fleet.dir}${sep}`, "")),
  };
}
