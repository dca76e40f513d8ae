/**
 * The ResourceProvider service as plain functions over plain values: requests and responses are objects,
 * properties are JavaScript values (Struct.toJavaScript's form). server.ts converts the protobuf messages;
 * tests call these directly, in process.
 */
import { batchWritesFrom, openSession, SecretValues } from "../../engine/index.ts";
import { readShipped, vigilVersion } from "../../shipped.ts";
import { ProviderError, Status } from "./errors.ts";
import { invoke } from "./invoke.ts";
import { redactingHandlers } from "./redaction.ts";
import { type CheckFailure, type DiffResult, type ProviderContext, resourceKind } from "./resources.ts";
import { type Props, unknownValue, unwrapSecrets } from "./values.ts";
import { takeWrite, withoutWrite, withWrite } from "./write.ts";

/** Which resource: Pulumi sends `type` (newer engines) and always the URN, whose type part names it. */
export interface ResourceRequest {
  urn: string;
  type?: string;
}

export interface ProviderHandlers {
  GetPluginInfo(): Promise<{ version: string }>;
  GetSchema(request: { version?: number }): Promise<{ schema: string }>;
  CheckConfig(request: { urn?: string; olds?: Props; news: Props }): {
    inputs: Props;
    failures: CheckFailure[];
  };
  DiffConfig(request: { olds: Props; news: Props; oldInputs?: Props }): DiffResult;
  Configure(request: { variables?: Record<string, string>; args?: Props }): {
    acceptSecrets: boolean;
    supportsPreview: boolean;
    acceptResources: boolean;
    acceptOutputs: boolean;
  };
  Check(request: ResourceRequest & { olds?: Props; news: Props; randomSeed?: Uint8Array }): Promise<{
    inputs: Props;
    failures: CheckFailure[];
  }>;
  Diff(request: ResourceRequest & { id: string; olds: Props; news: Props; oldInputs?: Props }): DiffResult;
  Create(
    request: ResourceRequest & { properties: Props; preview?: boolean },
  ): Promise<{ id: string; properties: Props }>;
  Read(
    request: ResourceRequest & { id: string; properties?: Props; inputs?: Props },
  ): Promise<{ id: string; properties?: Props; inputs?: Props }>;
  Update(
    request: ResourceRequest & { id: string; olds: Props; news: Props; oldInputs?: Props; preview?: boolean },
  ): Promise<{ properties: Props }>;
  Delete(request: ResourceRequest & { id: string; properties: Props }): Promise<Record<string, never>>;
  Invoke(request: { tok: string; args?: Props }): Promise<{ return: Props; failures: CheckFailure[] }>;
  Cancel(): Record<string, never>;
}

/** `urn:pulumi:stack::project::[parent$]vigil:index:Monitor::name` → `vigil:index:Monitor`. */
export function typeOf(request: ResourceRequest): string {
  if (request.type) return request.type;
  const qualified = request.urn.split("::")[2] ?? "";
  return qualified.split("$").at(-1) ?? "";
}

const endpointForm = /^https?:\/\/[^/]/;

/** Endpoint and token from the provider's config (typed `args`, or the `vigil:config:*` variables). */
function configValue(request: { variables?: Record<string, string>; args?: Props }, name: string): unknown {
  const fromArgs = request.args ? unwrapSecrets(request.args).members[name] : undefined;
  if (fromArgs !== undefined && fromArgs !== null && fromArgs !== "") return fromArgs;
  return request.variables?.[`vigil:config:${name}`] || undefined;
}

export function createHandlers(env: NodeJS.ProcessEnv = process.env): ProviderHandlers {
  /** Every secret seen: no error or check failure shows one (redaction.ts). */
  const secrets = new SecretValues();
  let context: ProviderContext | undefined;
  let cancelled = false;
  let schema: Promise<string> | undefined;

  const configured = (): ProviderContext => {
    if (!context)
      throw new ProviderError(
        Status.FAILED_PRECONDITION,
        "The vigil provider was used before Pulumi configured it.",
      );
    return context;
  };

  const handlers: ProviderHandlers = {
    async GetPluginInfo() {
      return { version: vigilVersion() };
    },
    async GetSchema(request) {
      if ((request.version ?? 0) > 0)
        throw new ProviderError(
          Status.INVALID_ARGUMENT,
          `schema version ${request.version} is not supported`,
        );
      schema ??= readShipped("schemas/pulumi-schema.json").catch((error: unknown) => {
        schema = undefined;
        throw new ProviderError(Status.INTERNAL, `the vigil package schema is missing: ${String(error)}`);
      });
      return { schema: await schema };
    },
    CheckConfig(request) {
      const endpoint = unwrapSecrets(request.news).members.endpoint;
      const failures: CheckFailure[] = [];
      // Only a value the program sets is judged here: the environment is read when configuring.
      if (typeof endpoint === "string" && endpoint !== unknownValue && !endpointForm.test(endpoint))
        failures.push({
          property: "endpoint",
          reason: `The endpoint is the API's base URL, http(s)://host[:port][/path], not ${JSON.stringify(endpoint)}.`,
        });
      return { inputs: request.news, failures };
    },
    DiffConfig(request) {
      const olds = unwrapSecrets(request.olds).members;
      const news = unwrapSecrets(request.news).members;
      // Another endpoint or token changes where and as whom calls go; the objects themselves stay.
      const changed = ["endpoint", "token"].filter((name) => (olds[name] ?? "") !== (news[name] ?? ""));
      return {
        changes: changed.length > 0 ? "DIFF_SOME" : "DIFF_NONE",
        diffs: changed,
        replaces: [],
        stables: [],
        deleteBeforeReplace: false,
        detailedDiff: Object.fromEntries(changed.map((name) => [name, { kind: "UPDATE", inputDiff: true }])),
        hasDetailedDiff: true,
      };
    },
    Configure(request) {
      const pick = (name: "endpoint" | "token", variable: string): string => {
        const value = configValue(request, name) ?? env[variable];
        if (value === unknownValue)
          throw new ProviderError(
            Status.FAILED_PRECONDITION,
            `The vigil provider's ${name} is not known until the update; configure it from a value known at preview (config, or ${variable}).`,
          );
        if (typeof value !== "string" || value === "")
          throw new ProviderError(
            Status.FAILED_PRECONDITION,
            `No API ${name} for the vigil provider: set vigil:${name} (pulumi config set ${name === "token" ? "--secret " : ""}vigil:${name} ...) or the ${variable} environment variable.`,
          );
        return value;
      };
      const endpoint = pick("endpoint", "VIGIL_ENDPOINT");
      const token = pick("token", "VIGIL_TOKEN");
      secrets.add(token);
      if (!endpointForm.test(endpoint))
        throw new ProviderError(
          Status.INVALID_ARGUMENT,
          `Invalid endpoint ${JSON.stringify(endpoint)}: the API's base URL is http(s)://host[:port][/path].`,
        );
      context ??= {
        ...openSession(endpoint, token, { keyPrefix: "pu", batchWrites: batchWritesFrom(env) }),
        cancelled,
      };
      return { acceptSecrets: true, supportsPreview: true, acceptResources: false, acceptOutputs: false };
    },
    async Check(request) {
      const kind = resourceKind(typeOf(request));
      const news = withoutWrite(request.news);
      const failures = kind.check(news);
      // Before any write, what the account would refuse (docs/engine.md, "Account checks"); a preview
      // before Configure has no account to ask.
      if (failures.length === 0 && context)
        failures.push(...(await kind.checkAccount(context, withoutWrite(request.olds), news)));
      // Each step's write gets its own nonce, so no other stack's or run's write shares its keys.
      return { inputs: withWrite(kind.checkedInputs(news), request.randomSeed), failures };
    },
    Diff(request) {
      return resourceKind(typeOf(request)).diff(
        request.id,
        request.olds,
        withoutWrite(request.news),
        withoutWrite(request.oldInputs),
      );
    },
    async Create(request) {
      const kind = resourceKind(typeOf(request));
      const { inputs, nonce } = takeWrite(request.properties);
      // A preview never calls the service: the id and what the service decides are unknown.
      if (request.preview) return { id: "", properties: kind.previewCreate(inputs) };
      return kind.create(configured(), inputs, nonce);
    },
    async Read(request) {
      const kind = resourceKind(typeOf(request));
      const read = await kind.read(configured(), request.id, request.properties ?? {}, request.inputs);
      // Gone: an empty id tells Pulumi to drop the resource from its state.
      if (!read) return { id: "" };
      return { id: request.id, ...read };
    },
    async Update(request) {
      const kind = resourceKind(typeOf(request));
      const { inputs, nonce } = takeWrite(request.news);
      const oldInputs = withoutWrite(request.oldInputs);
      if (request.preview) return { properties: kind.previewUpdate(request.olds, inputs, oldInputs) };
      return {
        properties: await kind.update(configured(), request.id, request.olds, inputs, oldInputs, nonce),
      };
    },
    async Delete(request) {
      await resourceKind(typeOf(request)).delete(configured(), request.id, request.properties);
      return {};
    },
    async Invoke(request) {
      return { return: await invoke(configured().ops, request.tok), failures: [] };
    },
    // Calls in flight finish (a write cut short would leave Pulumi unsure of the object); none start after.
    Cancel() {
      cancelled = true;
      if (context) context.cancelled = true;
      return {};
    },
  };
  return redactingHandlers(handlers, secrets, typeOf);
}
