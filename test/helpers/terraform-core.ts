/**
 * What Terraform core does around a provider, for tests: the proposed new state it hands to
 * PlanResourceChange, and the rules it holds a provider to (a planned value equals the config wherever the
 * config sets one; the state after apply equals every known planned value). Drives either the in-process
 * handlers or the launched binary over gRPC: both answer the same messages.
 */
import { expect } from "vitest";
import {
  type CtyObject,
  type CtyValue,
  decodeMsgpack,
  encodeMsgpack,
  fromMembers,
  isObjectValue,
  type ObjectType,
  Unknown,
} from "../../src/terraform/cty.ts";
import { dataSourceType } from "../../src/terraform/data-sources.ts";
import { snakeCase } from "../../src/terraform/names.ts";
import type { ProviderHandlers } from "../../src/terraform/plugin/protocol.ts";
import { createHandlers } from "../../src/terraform/provider.ts";
import type { Attributes } from "../../src/terraform/resource-values.ts";
import { resourceType } from "../../src/terraform/resources.ts";

/** One RPC: the request as grpc-js hands it to the server, the response as the server answers it. */
export type Call = (rpc: string, request: object) => Promise<any>;

export interface Instance {
  state: CtyObject;
  private: Buffer;
}

export interface Planned {
  planned: CtyValue;
  requiresReplace: { steps: object[] }[];
  plannedPrivate: Buffer;
  action: "create" | "update" | "replace" | "delete" | "no-op";
}

const dynamic = (value: CtyValue, type: ObjectType) => ({
  msgpack: Buffer.from(encodeMsgpack(value, type)),
  json: Buffer.alloc(0),
});

const bytes = (value: Uint8Array | undefined | null) => Buffer.from(value ?? []);

function decoded(out: { msgpack?: Uint8Array; json?: Uint8Array } | undefined | null, type: ObjectType) {
  if (!out?.msgpack || out.msgpack.length === 0) return null;
  return decodeMsgpack(out.msgpack, type);
}

/** Terraform's proposed new state: config values, with prior values where the config leaves a computed one unset. */
export function proposedNew(prior: CtyValue, config: CtyValue, attributes: Attributes): CtyValue {
  if (config === null) return null;
  const p = isObjectValue(prior) ? prior : {};
  const c = config as CtyObject;
  return Object.fromEntries(
    Object.entries(attributes).map(([name, a]) => {
      const cv = c[name] ?? null;
      const pv = p[name] ?? null;
      if (a.computed && !a.optional && !a.required) return [name, isObjectValue(prior) ? pv : null];
      if (cv === null && a.computed) return [name, a.optional && holdsNonComputed(pv, a) ? null : pv];
      if (a.nested_type?.nesting_mode === "single" && isObjectValue(cv) && isObjectValue(pv))
        return [name, proposedNew(pv, cv, a.nested_type.attributes)];
      return [name, cv];
    }),
  );
}

/**
 * Whether a nested attribute's value holds a member that is not computed. Terraform proposes null for such an
 * optional+computed attribute the config leaves unset, taking the member for one only a config can have set
 * (objchange's optionalValueNotComputable).
 */
function holdsNonComputed(value: CtyValue, attribute: Attributes[string]): boolean {
  const nested = attribute.nested_type;
  if (!nested || value === null || value instanceof Unknown) return false;
  const items =
    nested.nesting_mode === "single" ? [value] : Array.isArray(value) ? value : Object.values(value);
  return items.some(
    (item) =>
      isObjectValue(item) &&
      Object.entries(nested.attributes).some(([name, a]) => {
        const v = item[name] ?? null;
        return v !== null && !(v instanceof Unknown) && (!a.computed || holdsNonComputed(v, a));
      }),
  );
}

/** Terraform's check of a plan: wherever the config sets a value, the plan keeps it. */
export function assertPlanKeepsConfig(
  planned: CtyValue,
  config: CtyValue,
  attributes: Attributes,
  at = "",
): void {
  if (!isObjectValue(planned) || !isObjectValue(config)) return;
  for (const [name, a] of Object.entries(attributes)) {
    const cv = config[name] ?? null;
    const pv = planned[name] ?? null;
    if (cv instanceof Unknown) continue;
    if (a.nested_type?.nesting_mode === "single" && isObjectValue(cv)) {
      assertPlanKeepsConfig(pv, cv, a.nested_type.attributes, `${at}${name}.`);
      continue;
    }
    if (cv === null && a.computed) continue;
    expect(pv, `planned ${at}${name} must equal the config`).toEqual(cv);
  }
}

/** Terraform's check after apply: every known planned value is what the new state holds, and nothing is unknown. */
export function assertStateKeepsPlan(state: CtyValue, planned: CtyValue, at = "(root)"): void {
  expect(state instanceof Unknown, `${at} is still unknown after apply`).toBe(false);
  if (planned instanceof Unknown) return;
  if (Array.isArray(planned)) {
    expect(Array.isArray(state), at).toBe(true);
    expect((state as CtyValue[]).length, `${at} length`).toBe(planned.length);
    for (const [i, v] of planned.entries()) assertStateKeepsPlan((state as CtyValue[])[i]!, v, `${at}[${i}]`);
    return;
  }
  if (isObjectValue(planned)) {
    expect(isObjectValue(state), at).toBe(true);
    for (const [k, v] of Object.entries(planned))
      assertStateKeepsPlan((state as CtyObject)[k]!, v, `${at}.${k}`);
    return;
  }
  expect(state, `${at}: the state after apply differs from the plan`).toEqual(planned);
}

function sameValue(a: CtyValue, b: CtyValue): boolean {
  if (a instanceof Unknown || b instanceof Unknown) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]!));
  if (isObjectValue(a) && isObjectValue(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k] ?? null, b[k] ?? null));
  }
  return a === b;
}

export class Core {
  readonly call: Call;
  constructor(call: Call) {
    this.call = call;
  }

  /** A call whose diagnostics must hold no error. */
  async ok(rpc: string, request: object): Promise<any> {
    const response = await this.call(rpc, request);
    const errors = (response.diagnostics ?? []).filter((d: { severity: string }) => d.severity === "ERROR");
    if (errors.length > 0) throw new Error(`${rpc}: ${JSON.stringify(errors)}`);
    return response;
  }

  async configure(values: { endpoint?: string; token?: string } = {}): Promise<void> {
    const type: ObjectType = { kind: "object", attributes: { endpoint: "string", token: "string" } };
    await this.ok("ConfigureProvider", {
      terraform_version: "1.11.0",
      config: dynamic({ endpoint: values.endpoint ?? null, token: values.token ?? null }, type),
      client_capabilities: null,
    });
  }

  /** A config from engine members (camelCase; unset members left out). */
  config(typeName: string, members: Record<string, unknown>): CtyObject {
    return fromMembers(members, resourceType(typeName).type);
  }

  async validate(typeName: string, config: CtyValue): Promise<any[]> {
    const { type } = resourceType(typeName);
    const response = await this.call("ValidateResourceConfig", {
      type_name: typeName,
      config: dynamic(config, type),
      client_capabilities: null,
    });
    return response.diagnostics ?? [];
  }

  async plan(typeName: string, prior: Instance | null, config: CtyValue): Promise<Planned> {
    const rt = resourceType(typeName);
    // Terraform validates every config before planning it.
    if (config !== null) {
      const errors = (await this.validate(typeName, config)).filter((d) => d.severity === "ERROR");
      if (errors.length > 0) throw new Error(`ValidateResourceConfig: ${JSON.stringify(errors)}`);
    }
    const proposed = proposedNew(prior?.state ?? null, config, rt.attributes);
    const response = await this.ok("PlanResourceChange", {
      type_name: typeName,
      prior_state: dynamic(prior?.state ?? null, rt.type),
      proposed_new_state: dynamic(proposed, rt.type),
      config: dynamic(config, rt.type),
      prior_private: prior?.private ?? Buffer.alloc(0),
      provider_meta: null,
      client_capabilities: null,
    });
    const planned = decoded(response.planned_state, rt.type);
    assertPlanKeepsConfig(planned, config, rt.attributes);
    const requiresReplace = response.requires_replace ?? [];
    const action =
      planned === null
        ? "delete"
        : prior === null
          ? "create"
          : requiresReplace.length > 0
            ? "replace"
            : sameValue(planned, prior.state)
              ? "no-op"
              : "update";
    return { planned, requiresReplace, plannedPrivate: bytes(response.planned_private), action };
  }

  async apply(
    typeName: string,
    prior: Instance | null,
    plan: Planned,
    config: CtyValue,
  ): Promise<Instance | null> {
    const rt = resourceType(typeName);
    const response = await this.ok("ApplyResourceChange", {
      type_name: typeName,
      prior_state: dynamic(prior?.state ?? null, rt.type),
      planned_state: dynamic(plan.planned, rt.type),
      config: dynamic(config, rt.type),
      planned_private: plan.plannedPrivate,
      provider_meta: null,
    });
    const state = decoded(response.new_state, rt.type);
    if (plan.planned !== null) assertStateKeepsPlan(state, plan.planned);
    return state === null ? null : { state: state as CtyObject, private: bytes(response.private) };
  }

  /** Plan and apply, as `terraform apply` does for one resource; a replace is a delete and a create. */
  async converge(typeName: string, prior: Instance | null, config: CtyValue): Promise<Instance | null> {
    const plan = await this.plan(typeName, prior, config);
    if (plan.action === "no-op") return prior;
    if (plan.action === "replace") {
      await this.apply(typeName, prior, await this.plan(typeName, prior, null), null);
      return this.converge(typeName, null, config);
    }
    return this.apply(typeName, prior, plan, config);
  }

  async read(typeName: string, instance: Instance): Promise<Instance | null> {
    const rt = resourceType(typeName);
    const response = await this.ok("ReadResource", {
      type_name: typeName,
      current_state: dynamic(instance.state, rt.type),
      private: instance.private,
      provider_meta: null,
      client_capabilities: null,
    });
    const state = decoded(response.new_state, rt.type);
    return state === null ? null : { state: state as CtyObject, private: bytes(response.private) };
  }

  async import(typeName: string, id: string): Promise<Instance> {
    const rt = resourceType(typeName);
    const response = await this.ok("ImportResourceState", {
      type_name: typeName,
      id,
      client_capabilities: null,
    });
    const [imported] = response.imported_resources;
    const instance = {
      state: decoded(imported.state, rt.type) as CtyObject,
      private: bytes(imported.private),
    };
    const read = await this.read(typeName, instance);
    if (!read) throw new Error(`import of ${id}: the object does not exist`);
    return read;
  }

  /** ReadDataSource's answer: the state, and any diagnostics. */
  async readData(
    typeName: string,
    config: Record<string, unknown>,
  ): Promise<{ state: CtyValue; diagnostics: any[] }> {
    const type = dataSourceType(typeName);
    const response = await this.call("ReadDataSource", {
      type_name: typeName,
      config: dynamic(fromMembers(config, type), type),
      provider_meta: null,
      client_capabilities: null,
    });
    return { state: decoded(response.state, type), diagnostics: response.diagnostics ?? [] };
  }

  async dataSource(typeName: string, config: Record<string, unknown>): Promise<CtyObject> {
    const { state, diagnostics } = await this.readData(typeName, config);
    if (diagnostics.length > 0) throw new Error(`ReadDataSource: ${JSON.stringify(diagnostics)}`);
    return state as CtyObject;
  }
}

/**
 * The provider served in process, its handlers called directly, configured from `env` (its environment).
 * `diagnostics`, when given, collects every response's diagnostics (a secret scan reads them all).
 */
export async function configuredCore(env: Record<string, string>, diagnostics?: unknown[]): Promise<Core> {
  const handlers = createHandlers(env);
  const core = new Core(async (rpc, request) => {
    const response = await handlers[rpc as keyof ProviderHandlers](request as never);
    diagnostics?.push((response as { diagnostics?: unknown }).diagnostics ?? []);
    return response;
  });
  await core.configure();
  return core;
}

/** An attribute of a state, by member name (camelCase), as a plain value. */
export function attr(instance: Instance | null, member: string): CtyValue {
  return instance?.state[snakeCase(member)] ?? null;
}
