/**
 * The fleet file (`fleet.yaml`, docs/fleet.md): the accounts a fleet of workers reconciles, each with its
 * endpoint, the environment variable its token comes from, its GitOps paths (relative to the fleet file)
 * and optional drift watching. Read as the configuration's files are (bounded, `__proto__` an ordinary key,
 * every problem at file:line:column); its shape is one zod schema, which `schemas/vigil-fleet.schema.json`
 * is generated from.
 */
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { DurationError, parseDuration } from "../duration.ts";
import { type ParsedFile, parseConfigFile, quote, type YamlPath } from "../gitops/files.ts";
import { formatDiagnostic, type LoadDiagnostic } from "../gitops/load.ts";
import { describeValue, memberPath } from "../gitops/load-draft.ts";

/** An account's name is its state's workspace name: letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const accountNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
/** The whole value is one `${env:NAME}`: a worker fills it from its own environment. */
const envReference = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

const accountSchema = z.strictObject({
  endpoint: z
    .string()
    .optional()
    .describe(
      `The API's base URL, or \${env:NAME} read from each worker's environment; the workers' VIGIL_ENDPOINT when absent.`,
    ),
  token: z
    .string()
    .describe(`\${env:NAME}: the environment variable each worker reads the account's API token from.`),
  paths: z
    .array(z.string().min(1))
    .min(1)
    .describe("The account's GitOps configuration: files or directories, relative to the fleet file."),
  watch: z
    .strictObject({
      every: z
        .string()
        .describe(
          "How often to check for drift: whole minutes dividing an hour (5m, 15m), or hours dividing a day (1h, 6h).",
        ),
      heal: z
        .boolean()
        .optional()
        .describe("Apply the configuration again when drift is found (default false)."),
      webhookSecret: z
        .string()
        .optional()
        .describe(
          `\${env:NAME}: the variable holding the account's webhook signing secret; a worker's POST /events/<account> then takes its deliveries and checks for drift at once.`,
        ),
    })
    .optional()
    .describe("Continuous drift detection, run by the workers."),
});

export const fleetSchema = z.strictObject({
  accounts: z
    .record(z.string().regex(accountNamePattern), accountSchema)
    .describe("The accounts, by name; each name is the account's workspace in the PostgreSQL state."),
});

/** The file's top: a map with `accounts`, a map; each account is judged by `accountSchema` on its own. */
const fleetShell = z.strictObject({ accounts: z.record(z.string(), z.unknown()) });

export const fleetSchemaId = "https://vigil.dev/schemas/vigil-fleet.schema.json";

/** The JSON Schema (draft 2020-12) of a fleet file, for editors (`# yaml-language-server: $schema=...`). */
export function fleetJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(fleetSchema, { target: "draft-2020-12", io: "input" }) as Record<
    string,
    unknown
  >;
  const { $schema, ...rest } = schema;
  return { $schema, $id: fleetSchemaId, title: "vigil fleet file", ...rest };
}

/** Where a value comes from: written in the fleet file, or a worker's environment variable. */
export type Setting = { value: string } | { env: string };

export interface FleetAccount {
  name: string;
  /** Absent: the worker's VIGIL_ENDPOINT. */
  endpoint?: Setting;
  /** Always an environment variable: a token is never written in the fleet file nor carried by a job. */
  token: { env: string };
  /** Absolute paths of the account's configuration. */
  paths: string[];
  watch?: { everyMs: number; cron: string; heal: boolean; webhookSecret?: { env: string } };
}

export interface Fleet {
  file: string;
  /** The fleet file's directory: what the accounts' paths are relative to. */
  dir: string;
  accounts: FleetAccount[];
}

export class FleetFileError extends Error {
  readonly diagnostics: LoadDiagnostic[];
  constructor(diagnostics: LoadDiagnostic[]) {
    const n = diagnostics.length;
    super(
      `${diagnostics.map((d) => formatDiagnostic(d)).join("\n")}\n${n} problem${n === 1 ? "" : "s"} in the fleet file; nothing was enqueued.`,
    );
    this.name = "FleetFileError";
    this.diagnostics = diagnostics;
  }
}

/** Reads and judges a fleet file; every problem at once, as a FleetFileError. */
export async function readFleetFile(file: string): Promise<Fleet> {
  const { parsed, problems } = await parseConfigFile(file);
  const diagnostics: LoadDiagnostic[] = problems.map((p) => ({ at: p.at, message: p.message }));
  if (!parsed || diagnostics.length > 0) throw new FleetFileError(diagnostics);
  const at = (path: YamlPath, onKey = false) =>
    (onKey ? parsed.positions.key(path) : parsed.positions.value(path)) ?? parsed.positions.value([]);
  const problem = (path: YamlPath, message: string, onKey = false) => {
    const place = at(path, onKey);
    diagnostics.push({
      ...(place && { at: place }),
      ...(path.length > 0 && { path: memberPath(path) }),
      message,
    });
  };
  // Judged account by account, never through an object keyed by their names: `__proto__` is a name like any other.
  const shell = fleetShell.safeParse(parsed.data);
  const accounts: FleetAccount[] = [];
  const dir = dirname(resolve(file));
  if (!shell.success) for (const issue of shell.error.issues) describeIssue(issue, [], parsed, problem);
  else {
    // The file's own map (a userMap: every key an own member), not zod's copy of it.
    const given = (parsed.data as { accounts: Record<string, unknown> }).accounts;
    for (const name of Object.keys(given)) {
      const path = ["accounts", name];
      if (!accountNamePattern.test(name)) {
        describeIssue({ code: "invalid_key", path } as never, [], parsed, problem);
        continue;
      }
      const account = accountSchema.safeParse(given[name]);
      if (account.success) accounts.push(judgeAccount(name, account.data, dir, problem));
      else for (const issue of account.error.issues) describeIssue(issue, path, parsed, problem);
    }
  }
  if (diagnostics.length > 0) throw new FleetFileError(diagnostics);
  if (accounts.length === 0) problem(["accounts"], "the fleet has no accounts; name at least one");
  if (diagnostics.length > 0) throw new FleetFileError(diagnostics);
  return { file, dir, accounts };
}

function judgeAccount(
  name: string,
  a: z.infer<typeof accountSchema>,
  dir: string,
  problem: (path: YamlPath, message: string, onKey?: boolean) => void,
): FleetAccount {
  const base: YamlPath = ["accounts", name];
  const token = envReference.exec(a.token);
  if (!token)
    problem(
      [...base, "token"],
      `the token must be \${env:NAME}, the environment variable each worker reads it from: a token written in the fleet file would be committed with it, and carried by every job (the value is not shown)`,
    );
  let endpoint: Setting | undefined;
  if (a.endpoint !== undefined) {
    const env = envReference.exec(a.endpoint);
    if (env) endpoint = { env: env[1]! };
    else if (/^https?:\/\/[^\s/]+/.test(a.endpoint)) endpoint = { value: a.endpoint };
    else
      problem(
        [...base, "endpoint"],
        `the endpoint must be an http(s) URL or \${env:NAME}, not ${quote(a.endpoint)}`,
      );
  }
  const paths = a.paths.map((p, i) => {
    const full = resolve(dir, p);
    const rel = relative(dir, full);
    if (isAbsolute(p) || rel === ".." || rel.startsWith(`..${sep}`))
      problem(
        [...base, "paths", i],
        `${quote(p)} leads outside the fleet file's directory (${dir}); paths are relative to it, and stay inside`,
      );
    return full;
  });
  let watch: FleetAccount["watch"];
  if (a.watch) {
    const every = cronOf(a.watch.every);
    if ("cron" in every) watch = { ...every, heal: a.watch.heal ?? false };
    else problem([...base, "watch", "every"], every.message);
    if (a.watch.webhookSecret !== undefined) {
      const secret = envReference.exec(a.watch.webhookSecret);
      if (secret && watch) watch.webhookSecret = { env: secret[1]! };
      else if (!secret)
        problem(
          [...base, "watch", "webhookSecret"],
          `the webhook secret must be \${env:NAME}, the environment variable each worker reads it from (the value is not shown)`,
        );
    }
  }
  return {
    name,
    ...(endpoint && { endpoint }),
    token: { env: token?.[1] ?? "" },
    paths,
    ...(watch && { watch }),
  };
}

/**
 * `every` as a cron expression for the queue's schedules: whole minutes dividing an hour, or whole hours
 * dividing a day, so every period is the same length.
 */
function cronOf(every: string): { cron: string; everyMs: number } | { message: string } {
  let ms: number;
  try {
    ms = parseDuration(every, { name: "watch.every", forms: ["units"], minMs: 60_000, maxMs: 86_400_000 });
  } catch (error) {
    if (error instanceof DurationError) return { message: error.message };
    throw error;
  }
  const minutes = ms / 60_000;
  if (Number.isInteger(minutes) && minutes < 60 && 60 % minutes === 0)
    return { cron: `*/${minutes} * * * *`, everyMs: ms };
  const hours = ms / 3_600_000;
  if (Number.isInteger(hours) && 24 % hours === 0)
    return { cron: hours === 24 ? "0 0 * * *" : `0 */${hours} * * *`, everyMs: ms };
  return {
    message: `watch.every ${quote(every)} does not divide an hour or a day evenly; allowed: 1m, 2m, 3m, 4m, 5m, 6m, 10m, 12m, 15m, 20m, 30m, 1h, 2h, 3h, 4h, 6h, 8h, 12h, 24h`,
  };
}

/** One zod issue in the fleet file's words, at its place. */
function describeIssue(
  issue: z.core.$ZodIssue,
  base: YamlPath,
  parsed: ParsedFile,
  problem: (path: YamlPath, message: string, onKey?: boolean) => void,
): void {
  const path = [...base, ...issue.path.filter((p): p is string | number => typeof p !== "symbol")];
  if (issue.code === "unrecognized_keys") {
    for (const key of issue.keys)
      problem([...path, key], `unknown member ${quote(key)}; allowed: ${allowedAt(path).join(", ")}`, true);
    return;
  }
  if (issue.code === "invalid_key") {
    problem(
      path,
      `${quote(String(path.at(-1)))} is not an account name: use 1 to 63 letters, digits, ".", "_" or "-", starting with a letter or digit (it names the account's workspace)`,
      true,
    );
    return;
  }
  const value = path.reduce<unknown>(
    (v, k) => (typeof v === "object" && v !== null && Object.hasOwn(v, k) ? (v as never)[k] : undefined),
    parsed.data,
  );
  if (value === undefined && issue.code === "invalid_type") {
    problem(
      path.slice(0, -1),
      `${String(path.at(-1))} is required${requiredHint(String(path.at(-1)))}`,
      true,
    );
    return;
  }
  const what =
    issue.code === "invalid_type"
      ? `must be ${expectedWords(issue.expected)}, not ${describeValue(value)}`
      : issue.code === "too_small"
        ? issue.origin === "array"
          ? "must list at least one path"
          : "must not be empty"
        : issue.message;
  problem(path, what);
}

function requiredHint(member: string): string {
  if (member === "token") return `: \${env:NAME}, the variable each worker reads the account's token from`;
  if (member === "paths") return ": the account's configuration, relative to the fleet file";
  if (member === "accounts") return ": a map of account names to their settings";
  if (member === "every") return ": how often to check for drift (5m, 1h)";
  return "";
}

function expectedWords(expected: string): string {
  if (expected === "object" || expected === "record") return "a map";
  if (expected === "array") return "a list";
  if (expected === "boolean") return "true or false";
  return `a ${expected}`;
}

/** The members a map at `path` takes. */
function allowedAt(path: readonly (string | number)[]): string[] {
  if (path.length === 0) return Object.keys(fleetSchema.shape);
  if (path.length === 2) return Object.keys(accountSchema.shape);
  return ["every", "heal", "webhookSecret"];
}
