/**
 * One Pulumi resource kind over the engine: check, diff, create, read, update and delete of a vigil kind.
 * Pulumi keeps the state (inputs and outputs per resource); the engine's per-resource diff decides what the
 * API must be told, with the normalisation every frontend shares, so a preview after an update is empty.
 * Property names are the API's member names, which makes Pulumi values members as they are.
 */
import {
  type Change,
  type EngineKind,
  engineKind,
  importedMembers,
  type Members,
  maskedMember,
  type ObjectSession,
  type Row,
} from "../../engine/index.ts";
import { getAt, isObject, leafPointers, setAt, tokensOf, touchesPattern } from "../../engine/pointer.ts";
import { ResourceAdapter } from "../../engine/resource-adapter.ts";
import { canonicalJson } from "../../engine/state/index.ts";
import { type AttributeNode, isMaskedCredential, resourceTree } from "../../kinds/index.ts";
import { kindOfToken } from "../tokens.ts";
import { ProviderError, ResourceInitError, refusalError, Status } from "./errors.ts";
import {
  expandPath,
  knownMembers,
  type Props,
  propertyPath,
  unknownValue,
  unwrapSecrets,
  withUnknownMarkers,
  wrapSecrets,
} from "./values.ts";

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

/** Read-only members no update moves. */
const stableOnUpdate = ["created"];

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
  /** What this resource does as Terraform's do: judge, diff, write, and say a refusal as a gRPC error. */
  readonly adapter: ResourceAdapter;

  constructor(token: string) {
    const name = kindOfToken(token);
    if (!name) throw new ProviderError(Status.INVALID_ARGUMENT, `vigil has no resource type ${token}`);
    this.token = token;
    this.kind = engineKind(name);
    const { attributes, rules } = resourceTree(this.kind.definition);
    const isReadOnly = (a: AttributeNode) => a.presence === "computed";
    this.inputs = attributes.filter((a) => !isReadOnly(a)).map((a) => a.name);
    this.readOnly = attributes.filter((a) => isReadOnly(a) && a.name !== "id").map((a) => a.name);
    this.defaulted = attributes.filter((a) => a.filled).map((a) => a.name);
    this.replaceOn = rules.replaceOn;
    this.inputOnly = rules.inputOnly;
    this.sensitive = rules.sensitive;
    this.adapter = new ResourceAdapter(this.kind, {
      name: token,
      keyPrefix: "pu",
      lineage: "pulumi",
      refused: (refusal) => refusalError(refusal, token),
      shared: (id) =>
        new ProviderError(
          Status.ALREADY_EXISTS,
          `Two ${token} resources describe the same object: another resource of this program already created ${id} with the same inputs; an object can be managed by one resource only.`,
        ),
    });
  }

  // ---------------------------------------------------------------------------
  // Check and diff

  /** The engine's checks of the inputs, each at its property path; members still unknown are not judged. */
  check(news: Props): CheckFailure[] {
    const { members, unknowns } = unwrapSecrets(news);
    const { known, open } = knownMembers(members, unknowns);
    return this.adapter
      .validate(known, open)
      .map((d) => ({ property: propertyPath(d.pointer, known), reason: d.message }));
  }

  /**
   * What the account would refuse of these inputs, each at its property: a create when there are no old
   * inputs, else an update (judged only when the inputs changed). Pulumi's Check has no warnings, so a value
   * the account stores otherwise (an interval a fixed cadence overrides) is refused too, with the value.
   */
  async checkAccount(ctx: ProviderContext, olds: Props | undefined, news: Props): Promise<CheckFailure[]> {
    const { members, unknowns } = unwrapSecrets(news);
    const { known } = knownMembers(members, unknowns);
    const old = olds && Object.keys(olds).length > 0 ? unwrapSecrets(olds).members : undefined;
    if (old && canonicalJson(old) === canonicalJson(members)) return [];
    const findings = await this.adapter.judge(ctx, known, old);
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
    const { members, secrets } = unwrapSecrets(news);
    return wrapSecrets(members, [...secrets, ...this.kind.credentials(members)]);
  }

  /** The engine's changes from the outputs (the live object as last read) to the inputs. */
  changes(id: string, olds: Props, news: Props, oldInputs: Props | undefined): Change[] {
    const { members, unknowns } = unwrapSecrets(news);
    const live: Row = { ...unwrapSecrets(olds).members, id };
    // What the program set last time; without old inputs (an engine that sends none), the inputs are taken
    // as what made the object.
    const configured =
      oldInputs && Object.keys(oldInputs).length > 0
        ? leafPointers(unwrapSecrets(oldInputs).members)
        : undefined;
    return this.adapter.changes(withUnknownMarkers(members, unknowns), live, configured);
  }

  diff(id: string, olds: Props, news: Props, oldInputs: Props | undefined): DiffResult {
    const changes = this.changes(id, olds, news, oldInputs);
    const { members: desired } = unwrapSecrets(news);
    const { members: live } = unwrapSecrets(olds);
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

  /** Creates the object under keys of `nonce`, made by Check for this step. */
  async create(ctx: ProviderContext, news: Props, nonce: string): Promise<{ id: string; properties: Props }> {
    const { members, secrets, unknowns } = unwrapSecrets(news);
    if (unknowns.length > 0)
      throw new ProviderError(
        Status.INVALID_ARGUMENT,
        `${this.token}: ${unknowns.map((u) => propertyPath(u, members)).join(", ")} still unknown at create`,
      );
    this.refuseWhenCancelled(ctx, "create");
    const revealed = (row: Row) => this.outputs(this.adapter.revealed(row, members), members, secrets);
    const row = await this.adapter.create(ctx, members, nonce, (created, error) => {
      // What the create answered: the members the failed writes were to add are missing, so they diff.
      throw new ResourceInitError(String(created.id), revealed(created), error);
    });
    return { id: String(row.id), properties: revealed(row) };
  }

  /** A later read with the generated credentials kept from the outputs before: it shows them masked. */
  private keptGenerated(row: Row, before: Members): Row {
    const out = { ...row };
    for (const name of this.adapter.generated.values())
      if (before[name] !== undefined) out[name] = before[name];
    return out;
  }

  /** A preview's outputs of an update: the inputs over the outputs; what a write may move is unknown. */
  previewUpdate(olds: Props, news: Props, oldInputs: Props | undefined): Props {
    const out: Props = { ...olds, ...news };
    // An input the program dropped goes back to the service's default, which only the service knows.
    for (const name of Object.keys(oldInputs ?? {})) if (news[name] === undefined) out[name] = unknownValue;
    for (const name of this.readOnly)
      if (!stableOnUpdate.includes(name) && !this.adapter.isGeneratedOutput(name)) out[name] = unknownValue;
    return out;
  }

  async update(
    ctx: ProviderContext,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props | undefined,
    nonce: string,
  ): Promise<Props> {
    const changes = this.changes(id, olds, news, oldInputs);
    const { members, secrets } = unwrapSecrets(news);
    const live: Row = { ...unwrapSecrets(olds).members, id };
    if (changes.length > 0) {
      this.refuseWhenCancelled(ctx, "update");
      await this.adapter.update(ctx, live, members, changes, nonce);
    }
    // Read with the others that wait at the same moment (one listing for a wave of updates).
    const row = await this.adapter.readBack(
      ctx,
      live,
      () => new ProviderError(Status.NOT_FOUND, `${this.token} ${id} is gone: it was deleted outside Pulumi`),
    );
    return this.outputs(this.keptGenerated(row, unwrapSecrets(olds).members), members, secrets);
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
      ...[...this.adapter.generated.values()].map((name) => `/${name}`),
      // A secret item of a set makes the set secret: the service keeps no order, so its place may move.
      ...givenSecrets.map((p) => maskedMember(this.kind.schemaFor(given), p, given)),
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
    const old = unwrapSecrets(properties);
    const row = await this.adapter.read(ctx, { ...old.members, id });
    if (!row) return null;
    if (inputs && Object.keys(inputs).length > 0)
      return {
        properties: this.outputs(this.keptGenerated(row, old.members), old.members, old.secrets),
        inputs,
      };
    const described = importedMembers(this.kind, this.inputs, row);
    return {
      properties: this.outputs(row, {}, []),
      inputs: wrapSecrets(described, this.kind.credentials(described)),
    };
  }

  async delete(ctx: ProviderContext, id: string, properties: Props): Promise<void> {
    this.refuseWhenCancelled(ctx, "delete");
    await this.adapter.remove(ctx, { ...unwrapSecrets(properties).members, id });
  }

  // ---------------------------------------------------------------------------

  private refuseWhenCancelled(ctx: ProviderContext, operation: string): void {
    if (ctx.cancelled)
      throw new ProviderError(
        Status.ABORTED,
        `Pulumi cancelled the operation: the vigil provider did not ${operation} ${this.token}.`,
      );
  }
}

/** Removes values the service read back masked (`{set: true}`): nobody can know them. */
function dropMasked(value: unknown): void {
  if (Array.isArray(value)) for (const item of value) dropMasked(item);
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) {
      if (isMaskedCredential(v)) delete value[k];
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
