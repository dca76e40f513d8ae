/**
 * One Pulumi resource kind over the engine: check, diff, create, read, update and delete of a vigil kind.
 * Pulumi keeps the state (inputs and outputs per resource); the engine's per-resource diff decides what the
 * API must be told, with the normalisation every frontend shares, so a preview after an update is empty.
 * Property names are the API's member names, which makes Pulumi values members as they are.
 */
import { ApiError, problemHeadline } from "../../api/index.ts";
import {
  allowancesOf,
  type Change,
  configMembers,
  configurationCodes,
  derivedKeys,
  diffResource,
  duplicateOf,
  type EngineKind,
  engineKind,
  explainIdempotencyConflict,
  judgeOne,
  type KeyFor,
  type Members,
  type ObjectSession,
  type Row,
  SharedObjectError,
  UnfinishedCreateError,
  validateDesired,
} from "../../engine/index.ts";
import {
  getAt,
  isObject,
  isUnder,
  leafPointers,
  setAt,
  tokensOf,
  touchesPattern,
} from "../../engine/pointer.ts";
import { canonicalJson } from "../../engine/state/index.ts";
import { generatedValues } from "../../kinds/index.ts";
import { memberName, resourceRules, resourceSchema, resourceTypeName } from "../../terraform/schema.ts";
import { kindOfToken } from "../tokens.ts";
import {
  expandPath,
  knownMembers,
  type Props,
  propertyPath,
  unknownValue,
  unwrap,
  withUnknownMarkers,
  wrapSecrets,
} from "./values.ts";

/** gRPC status codes the handlers answer with (numbers, so this module needs no gRPC). */
export const Status = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
} as const;

/** A failure the server answers as a gRPC status with this message. */
export class ProviderError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * A create whose object exists but whose later writes failed (components, update-only members): Pulumi
 * records the object with these properties (pulumirpc.ErrorResourceInitFailed) instead of forgetting it, and
 * the next update finishes it. Without this, the object would be in the account and in no state.
 */
export class ResourceInitError extends ProviderError {
  readonly id: string;
  readonly properties: Props;
  constructor(id: string, properties: Props, cause: unknown) {
    super(
      cause instanceof ProviderError ? cause.code : Status.INTERNAL,
      `${cause instanceof Error ? cause.message : String(cause)} (the object ${id} was created: the next update finishes it)`,
    );
    this.id = id;
    this.properties = properties;
  }
}

/** What every resource shares: one client (so one pacer), the ids created, and whether Cancel came. */
export interface ProviderContext extends ObjectSession {
  /** Set once Pulumi cancels: writes in flight finish, none start. */
  cancelled: boolean;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

export type DiffKind = "ADD" | "ADD_REPLACE" | "DELETE" | "DELETE_REPLACE" | "UPDATE" | "UPDATE_REPLACE";

export interface DiffResult {
  changes: "DIFF_NONE" | "DIFF_SOME";
  diffs: string[];
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  detailedDiff: Record<string, { kind: DiffKind; inputDiff: boolean }>;
  hasDetailedDiff: true;
}

/** Credential hashes are compared within one call only: any salt will do, and none is kept. */
const lineage = "pulumi";

/** Read-only members no update moves. */
const stableOnUpdate = ["created"];

/** A Terraform attribute path in member names. */
const memberPath = (path: readonly string[]) => path.map((step) => (step === "*" ? step : memberName(step)));

export class ResourceKind {
  readonly token: string;
  readonly kind: EngineKind;
  /** Top-level properties a program sets. */
  readonly inputs: readonly string[];
  /** Top-level properties only the service sets (`id` aside: Pulumi carries it beside the properties). */
  readonly readOnly: readonly string[];
  /** Inputs the service fills in when the program leaves them out. */
  readonly defaulted: readonly string[];
  readonly replaceOn: readonly (readonly string[])[];
  readonly inputOnly: readonly (readonly string[])[];
  readonly sensitive: readonly (readonly string[])[];
  /** Outputs holding a credential the service generated (`generatedSecret`), by the member it stands for. */
  readonly generated: ReadonlyMap<string, string>;

  constructor(token: string) {
    const name = kindOfToken(token);
    if (!name) throw new ProviderError(Status.INVALID_ARGUMENT, `vigil has no resource type ${token}`);
    this.token = token;
    this.kind = engineKind(name);
    const typeName = resourceTypeName(name);
    const attributes = Object.entries(resourceSchema(typeName).block.attributes);
    const isReadOnly = (a: (typeof attributes)[number][1]) => a.computed && !a.optional && !a.required;
    this.inputs = attributes.filter(([, a]) => !isReadOnly(a)).map(([n]) => memberName(n));
    this.readOnly = attributes.filter(([n, a]) => isReadOnly(a) && n !== "id").map(([n]) => memberName(n));
    this.defaulted = attributes.filter(([, a]) => a.optional && a.computed).map(([n]) => memberName(n));
    const rules = resourceRules(typeName);
    this.replaceOn = rules.replaceOn.map(memberPath);
    this.inputOnly = rules.inputOnly.map(memberPath);
    this.sensitive = rules.sensitive.map(memberPath);
    this.generated = new Map(rules.generated.map((g) => [g.member, memberName(g.attribute)]));
  }

  // ---------------------------------------------------------------------------
  // Check and diff

  /** The engine's checks of the inputs, each at its property path; members still unknown are not judged. */
  check(news: Props): CheckFailure[] {
    const { members, unknowns } = unwrap(news);
    const { known, open } = knownMembers(members, unknowns);
    const diagnostics = validateDesired([
      { address: `${this.kind.collection}.config`, kind: this.kind.name, members: known },
    ]);
    return diagnostics
      .filter(
        (d) =>
          !configurationCodes.has(d.code) &&
          !open.some((u) => isUnder(d.pointer, u) || isUnder(u, d.pointer)),
      )
      .map((d) => ({ property: propertyPath(d.pointer, known), reason: d.message }));
  }

  /**
   * What the account would refuse of these inputs, each at its property: a create when there are no old
   * inputs, else an update (judged only when the inputs changed). Pulumi's Check has no warnings, so a value
   * the account stores otherwise (an interval a fixed cadence overrides) is refused too, with the value.
   */
  async checkAccount(ctx: ProviderContext, olds: Props | undefined, news: Props): Promise<CheckFailure[]> {
    const { members, unknowns } = unwrap(news);
    const { known } = knownMembers(members, unknowns);
    const old = olds && Object.keys(olds).length > 0 ? unwrap(olds).members : undefined;
    if (old && canonicalJson(old) === canonicalJson(members)) return [];
    const resource = { address: `${this.kind.collection}.config`, kind: this.kind.name, members: known };
    const findings = await judgeOne(allowancesOf(ctx.ops), resource, {
      creating: !old,
      ...(old && { live: old }),
    });
    return [...findings.errors, ...findings.warnings].map((d) => ({
      property: propertyPath(d.pointer, known),
      reason: d.message,
    }));
  }

  /**
   * The inputs as Pulumi keeps them: every credential a secret, though the program passed it plainly (a
   * header value), so that the stack's state never holds one in plain text.
   */
  checkedInputs(news: Props): Props {
    const { members, secrets } = unwrap(news);
    return wrapSecrets(members, [...secrets, ...this.kind.credentials(members)]);
  }

  /** The engine's changes from the outputs (the live object as last read) to the inputs. */
  changes(id: string, olds: Props, news: Props, oldInputs: Props | undefined): Change[] {
    const { members, unknowns } = unwrap(news);
    const live: Row = { ...unwrap(olds).members, id };
    let managed: Members | undefined;
    if (oldInputs && Object.keys(oldInputs).length > 0) {
      // What the program set last time, in the form the service answered it.
      managed = {};
      for (const p of leafPointers(unwrap(oldInputs).members)) {
        const value = getAt(live, p);
        if (value !== undefined) setAt(managed, p, value);
      }
    }
    return diffResource({
      kind: this.kind,
      desired: withUnknownMarkers(members, unknowns),
      live,
      lineage,
      // Without old inputs (an engine that sends none), the inputs are taken as what made the object.
      ...(managed && { prior: { managed, secrets: {} } }),
    }).changes;
  }

  diff(id: string, olds: Props, news: Props, oldInputs: Props | undefined): DiffResult {
    const changes = this.changes(id, olds, news, oldInputs);
    const { members: desired } = unwrap(news);
    const { members: live } = unwrap(olds);
    const detailedDiff: DiffResult["detailedDiff"] = {};
    const diffs = new Set<string>();
    const replaces = new Set<string>();
    for (const change of changes) {
      const replacing = this.replaces(change.path);
      const op = change.op === "add" ? "ADD" : change.op === "remove" ? "DELETE" : "UPDATE";
      const path = propertyPath(change.path, change.value === undefined ? live : desired);
      detailedDiff[path] = { kind: replacing ? `${op}_REPLACE` : op, inputDiff: true };
      const top = tokensOf(change.path)[0]!;
      diffs.add(top);
      if (replacing) replaces.add(top);
    }
    return {
      changes: changes.length > 0 ? "DIFF_SOME" : "DIFF_NONE",
      diffs: [...diffs],
      replaces: [...replaces],
      stables: replaces.size > 0 ? [] : stableOnUpdate.filter((m) => this.readOnly.includes(m)),
      deleteBeforeReplace: changes.length > 0 && this.sameNaturalKey(desired, live),
      detailedDiff,
      hasDetailedDiff: true,
    };
  }

  /** Whether a change at this pointer replaces the object: immutable and create-only members. */
  private replaces(path: string): boolean {
    return this.replaceOn.some((rule) => touchesPattern(path, rule));
  }

  /**
   * A replacement holding the old object's natural key cannot exist beside it (the service refuses a
   * duplicate): the old one goes first, as the engine's plan orders it.
   */
  private sameNaturalKey(desired: Members, live: Members): boolean {
    const newKey = this.kind.naturalKey(this.kind.normalizeDesired(desired));
    return newKey !== undefined && newKey === this.kind.naturalKey(this.kind.normalizeLive(live));
  }

  // ---------------------------------------------------------------------------
  // Create and update

  /** A preview's outputs: the inputs, and unknown wherever the service decides the value. */
  previewCreate(news: Props): Props {
    const out: Props = { ...news };
    for (const name of this.readOnly) out[name] = unknownValue;
    for (const name of this.defaulted) if (out[name] === undefined) out[name] = unknownValue;
    return out;
  }

  async create(ctx: ProviderContext, news: Props): Promise<{ id: string; properties: Props }> {
    const { members, secrets, unknowns } = unwrap(news);
    if (unknowns.length > 0)
      throw new ProviderError(
        Status.INVALID_ARGUMENT,
        `${this.token}: ${unknowns.map((u) => propertyPath(u, members)).join(", ")} still unknown at create`,
      );
    this.refuseWhenCancelled(ctx, "create");
    const row = await this.createObject(ctx, members, (created, error) => {
      // What the create answered: the members the failed writes were to add are missing, so they diff.
      throw new ResourceInitError(
        String(created.id),
        this.outputs(this.revealed(created, members), members, secrets),
        error,
      );
    });
    return { id: String(row.id), properties: this.outputs(this.revealed(row, members), members, secrets) };
  }

  private isGenerated(name: string): boolean {
    return [...this.generated.values()].includes(name);
  }

  /** A create's answer with each credential the service generated under its output's name. */
  private revealed(row: Row, desired: Members): Row {
    const out = { ...row };
    for (const [member, value] of generatedValues(this.kind.schemaFor(desired), desired, row))
      out[this.generated.get(member)!] = value;
    return out;
  }

  /** A later read with the generated credentials kept from the outputs before: it shows them masked. */
  private keptGenerated(row: Row, before: Members): Row {
    const out = { ...row };
    for (const name of this.generated.values()) if (before[name] !== undefined) out[name] = before[name];
    return out;
  }

  private async createObject(
    ctx: ProviderContext,
    desired: Members,
    unfinished: (created: Row, error: unknown) => never,
  ): Promise<Row> {
    try {
      return await ctx.writes.create(this.kind, desired, (body, attempt) =>
        this.keys("create", [canonicalJson(body), attempt]),
      );
    } catch (error) {
      if (error instanceof UnfinishedCreateError)
        return unfinished(error.created, this.refusal("create", error.cause));
      if (error instanceof SharedObjectError)
        throw new ProviderError(
          Status.ALREADY_EXISTS,
          `Two ${this.token} resources describe the same object: another resource of this program already created ${error.id} with the same inputs; an object can be managed by one resource only.`,
        );
      throw this.refusal("create", error);
    }
  }

  /** A preview's outputs of an update: the inputs over the outputs; what a write may move is unknown. */
  previewUpdate(olds: Props, news: Props, oldInputs: Props | undefined): Props {
    const out: Props = { ...olds, ...news };
    // An input the program dropped goes back to the service's default, which only the service knows.
    for (const name of Object.keys(oldInputs ?? {})) if (news[name] === undefined) out[name] = unknownValue;
    for (const name of this.readOnly)
      if (!stableOnUpdate.includes(name) && !this.isGenerated(name)) out[name] = unknownValue;
    return out;
  }

  async update(
    ctx: ProviderContext,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props | undefined,
  ): Promise<Props> {
    const changes = this.changes(id, olds, news, oldInputs);
    const { members, secrets } = unwrap(news);
    const live: Row = { ...unwrap(olds).members, id };
    if (changes.length > 0) {
      this.refuseWhenCancelled(ctx, "update");
      const keyFor = this.keys("update", [id, live.updated, canonicalJson(changes)]);
      await this.guard("update", () => ctx.writes.update(this.kind, live, members, changes, keyFor));
    }
    // Read with the others that wait at the same moment (one listing for a wave of updates).
    const row = await this.guard("read", async () => {
      const read = await ctx.reads.read(this.kind, live);
      if (!read)
        throw new ProviderError(
          Status.NOT_FOUND,
          `${this.token} ${id} is gone: it was deleted outside Pulumi`,
        );
      return read;
    });
    return this.outputs(this.keptGenerated(row, unwrap(olds).members), members, secrets);
  }

  /**
   * Outputs from the live object: members as the engine compares them (read-back shapes undone) and what
   * the service alone sets; credentials (read back masked) and members never read back from `given` (the
   * inputs, or the outputs before); a masked value with nothing to keep is left out. Credentials, and
   * whatever came in as a secret, go out as secrets.
   */
  outputs(row: Row, given: Members, givenSecrets: readonly string[]): Props {
    const normalized = structuredClone(this.kind.normalizeLive(row)) as Members;
    const out: Members = {};
    for (const name of this.inputs) if (normalized[name] !== undefined) out[name] = normalized[name];
    for (const name of this.readOnly) if (row[name] !== undefined) out[name] = structuredClone(row[name]);
    const kept = [
      ...this.kind.credentials(given),
      ...[...this.inputOnly, ...this.sensitive].flatMap((path) => expandPath(given, path)),
    ];
    for (const p of kept) {
      const value = getAt(given, p);
      if (value !== undefined) setAt(out, p, structuredClone(value));
    }
    dropMasked(out);
    const secrets = [
      ...this.kind.credentials(out),
      ...this.sensitive.flatMap((path) => expandPath(out, path)),
      ...[...this.generated.values()].map((name) => `/${name}`),
      ...givenSecrets,
    ];
    return wrapSecrets(out, secrets);
  }

  // ---------------------------------------------------------------------------
  // Read and delete

  /**
   * The object as it is now; null once it is gone. With `inputs` (a refresh) they come back as they are;
   * without (an import, `Monitor.get`), the inputs are what a program would write to describe the object,
   * so a diff of them against the properties right after is empty.
   */
  async read(
    ctx: ProviderContext,
    id: string,
    properties: Props,
    inputs: Props | undefined,
  ): Promise<{ properties: Props; inputs: Props } | null> {
    const old = unwrap(properties);
    const row = await this.guard("read", () => ctx.reads.read(this.kind, { ...old.members, id }));
    if (!row) return null;
    if (inputs && Object.keys(inputs).length > 0)
      return {
        properties: this.outputs(this.keptGenerated(row, old.members), old.members, old.secrets),
        inputs,
      };
    const described = configMembers(this.kind, row, this.inputs);
    dropMasked(described);
    return {
      properties: this.outputs(row, {}, []),
      inputs: wrapSecrets(described, this.kind.credentials(described)),
    };
  }

  async delete(ctx: ProviderContext, id: string, properties: Props): Promise<void> {
    this.refuseWhenCancelled(ctx, "delete");
    const live: Row = { ...unwrap(properties).members, id };
    const key = this.keys("delete", [id])("delete");
    await this.guard("delete", () => ctx.writes.remove(this.kind, live, key));
  }

  // ---------------------------------------------------------------------------

  private refuseWhenCancelled(ctx: ProviderContext, operation: string): void {
    if (ctx.cancelled)
      throw new ProviderError(
        Status.ABORTED,
        `Pulumi cancelled the operation: the vigil provider did not ${operation} ${this.token}.`,
      );
  }

  /** Idempotency keys from what the write is about, so a retried run replays instead of writing twice. */
  private keys(operation: string, parts: readonly unknown[]): KeyFor {
    return derivedKeys("pu", [this.token, operation], parts);
  }

  /** Runs a call, turning the service's refusal into an error naming the properties it concerns. */
  private async guard<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.refusal(operation, error);
    }
  }

  /** A refusal as an error naming each property the service names, with every member of the problem said. */
  refusal(operation: string, error: unknown): unknown {
    if (!(error instanceof ApiError)) return error;
    const summary = `Could not ${operation} ${this.token}`;
    const existing = duplicateOf(error);
    if (existing)
      return new ProviderError(
        Status.ALREADY_EXISTS,
        `${summary}: ${error.message}\nThe object already exists as ${existing}: import it (pulumi import ${this.token} <name> ${existing}) instead of creating it.`,
      );
    const { description } = error;
    const details = description.members.map(
      (e) => `\n  ${propertyPath(e.pointer) || "(the resource)"}: ${e.message}`,
    );
    const code =
      error.status === 404
        ? Status.NOT_FOUND
        : error.status < 500
          ? Status.INVALID_ARGUMENT
          : Status.INTERNAL;
    return new ProviderError(
      code,
      details.length > 0
        ? `${summary}: ${error.route}: ${problemHeadline(description)}${details.join("")}`
        : `${summary}: ${explainIdempotencyConflict(error) ?? `${error.route}: ${problemHeadline(description)}`}`,
    );
  }
}

/** Removes values the service read back masked (`{set: true}`): nobody can know them. */
function dropMasked(value: unknown): void {
  if (Array.isArray(value)) for (const item of value) dropMasked(item);
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) {
      if (isObject(v) && v.set === true) delete value[k];
      else dropMasked(v);
    }
}

const kinds = new Map<string, ResourceKind>();
export function resourceKind(token: string): ResourceKind {
  let kind = kinds.get(token);
  if (!kind) {
    kind = new ResourceKind(token);
    kinds.set(token, kind);
  }
  return kind;
}
