/**
 * The ResourceProvider service as plain functions over plain values: requests and responses are objects,
 * properties are JavaScript values (Struct.toJavaScript's form). server.ts converts the protobuf messages;
 * tests call these directly, in process.
 */
import { batchWritesFrom, openSession, SecretValues } from "../../engine/index.ts";
import { readShipped, vigilVersion } from "../../shipped.ts";
import { checkConfig, connectionOf, diffConfig, judgedConnection } from "./config.ts";
import { ProviderError, Status } from "./errors.ts";
import { invoke } from "./invoke.ts";
import { redactingHandlers } from "./redaction.ts";
import { type CheckFailure, type DiffResult, type ProviderContext, resourceKind } from "./resources.ts";
import type { Props } from "./values.ts";
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

/** `GetSchema`: the package schema shipped beside the provider, read once (again after a failed read). */
function packageSchema(): ProviderHandlers["GetSchema"] {
  let schema: Promise<string> | undefined;
  return async (request) => {
    if ((request.version ?? 0) > 0)
      throw new ProviderError(Status.INVALID_ARGUMENT, `schema version ${request.version} is not supported`);
    schema ??= readShipped("schemas/pulumi-schema.json").catch((error: unknown) => {
      schema = undefined;
      throw new ProviderError(Status.INTERNAL, `the vigil package schema is missing: ${String(error)}`);
    });
    return { schema: await schema };
  };
}

export function createHandlers(env: NodeJS.ProcessEnv = process.env): ProviderHandlers {
  /** Every secret seen: no error or check failure shows one (redaction.ts). */
  const secrets = new SecretValues();
  let context: ProviderContext | undefined;
  let cancelled = false;

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
    GetSchema: packageSchema(),
    CheckConfig(request) {
      return { inputs: request.news, failures: checkConfig(request.news) };
    },
    DiffConfig(request) {
      return diffConfig(request.olds, request.news);
    },
    Configure(request) {
      const settings = connectionOf(request, env);
      // Before a refusal can quote it (the token given where the endpoint goes).
      secrets.add(settings.token);
      const { endpoint, token } = judgedConnection(settings);
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
