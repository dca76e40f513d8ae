/**
 * One Terraform resource type over the engine: validation, the per-resource plan, apply, refresh, import and
 * state upgrade of a vigil kind. Terraform keeps the state; the engine's diff decides what the API must be
 * told, with the same normalisation as every other frontend, so a plan after an apply is empty.
 */
import type { z } from "zod";
import {
  type Change,
  type EngineKind,
  engineKind,
  importedMembers,
  isWriteNonce,
  type Members,
  type ObjectSession,
  type Row,
  writeNonce,
} from "../engine/index.ts";
import { isUnder, leafPointers, pointer, setAt, touchesPattern } from "../engine/pointer.ts";
import { ResourceAdapter } from "../engine/resource-adapter.ts";
import { traitsOf } from "../kinds/index.ts";
import {
  type AttributePathStep,
  blockType,
  type CtyObject,
  type CtyValue,
  decodeJson,
  formatPath,
  fromMembers,
  getPath,
  isKnown,
  isObjectValue,
  type ObjectType,
  objectValue,
  setPath,
  toMembers,
  unknown,
} from "./cty.ts";
import { camelCase } from "./names.ts";
import { type Diagnostic, errorDiagnostic } from "./plugin/protocol.ts";
import type { PrivateState } from "./private-state.ts";
import {
  DiagnosticsError,
  PartialCreateError,
  protocolSteps,
  refusalDiagnostics,
} from "./resource-diagnostics.ts";
import {
  type Attributes,
  ctyMembersOf,
  isReadOnly,
  keepUnsetComputed,
  liveValue,
  plannedNew,
  pointerOf,
  refreshedValue,
  resetValue,
  settledValue,
  stepsOf,
  typeOfAttribute,
} from "./resource-values.ts";
import {
  type Attribute,
  kindOfResourceType,
  type ResourceRules,
  resourceRules,
  resourceSchema,
} from "./schema.ts";

/** Read-only members an update leaves as they are. */
const settledOnUpdate = new Set(["id", "created"]);

/** What the provider shares between resources: one client (so one pacer), and the ids it has created. */
export type ProviderContext = ObjectSession;

export interface PlanResult {
  planned: CtyValue;
  requiresReplace: AttributePathStep[][];
  private: PrivateState;
  /** The plan writes: a create, or an update with changes. */
  writes: boolean;
}

export class ResourceType {
  readonly typeName: string;
  readonly kind: EngineKind;
  readonly type: ObjectType;
  readonly attributes: Attributes;
  readonly rules: ResourceRules;
  /** What this resource does as Pulumi's do: judge, diff, write, and say a refusal as diagnostics. */
  readonly adapter: ResourceAdapter;

  constructor(typeName: string) {
    this.typeName = typeName;
    this.kind = engineKind(kindOfResourceType(typeName));
    const schema = resourceSchema(typeName);
    this.type = blockType(schema.block);
    this.attributes = schema.block.attributes;
    this.rules = resourceRules(typeName);
    this.adapter = new ResourceAdapter(this.kind, {
      name: typeName,
      keyPrefix: "tf",
      lineage: "terraform",
      refused: (refusal) => refusalDiagnostics(refusal, (at, message) => this.diagnosticAt(at, message)),
      shared: (id) =>
        new DiagnosticsError([
          {
            severity: "ERROR",
            summary: `Two ${typeName} resources describe the same object`,
            detail: `Another resource of this configuration already created ${id} with the same members; an object can be managed by one resource only.`,
          },
        ]),
    });
  }

  // -------------------------------------------------------------------------
  // Validate

  /** The engine's checks of a config, each at its attribute; members still unknown are not judged yet. */
  validate(config: CtyValue): Diagnostic[] {
    const { members, unknown: unknownAt } = toMembers(config, this.type);
    return this.adapter
      .validate(members, unknownAt.map(pointerOf))
      .map((d) => this.diagnosticAt(d.pointer, d.message));
  }

  /**
   * What the account would refuse of this write (or accept otherwise than written), each at its attribute:
   * the account is read once per provider process.
   */
  async accountDiagnostics(ctx: ProviderContext, prior: CtyValue, config: CtyValue, replacing: boolean) {
    const { members } = toMembers(config, this.type);
    const creating = prior === null || replacing;
    const findings = await this.adapter.judge(
      ctx,
      members,
      creating ? undefined : ctyMembersOf(prior, this.type),
    );
    return [
      ...findings.errors.map((d) => this.diagnosticAt(d.pointer, d.message)),
      ...findings.warnings.map((d) => ({
        ...this.diagnosticAt(d.pointer, d.message),
        severity: "WARNING" as const,
      })),
    ];
  }

  diagnosticAt(path: string, message: string): Diagnostic {
    const steps = stepsOf(path, this.type);
    return {
      severity: "ERROR",
      summary: steps.length > 0 ? `Invalid ${formatPath(steps)}` : `Invalid ${this.typeName}`,
      detail: message,
      ...(steps.length > 0 && { attribute: { steps: protocolSteps(steps) } }),
    };
  }

  // -------------------------------------------------------------------------
  // Plan

  plan(prior: CtyValue, proposed: CtyValue, config: CtyValue, statePrivate: PrivateState): PlanResult {
    // A planned change's nonce is its own: one kept from anywhere else would name another write.
    const { write: _, ...priorPrivate } = statePrivate;
    if (proposed === null)
      return { planned: null, requiresReplace: [], private: priorPrivate, writes: false };
    const desired = this.desiredMembers(config);
    if (prior === null) {
      return {
        planned: plannedNew(config, this.attributes),
        requiresReplace: [],
        private: { write: writeNonce() },
        writes: true,
      };
    }
    const changes = this.changes(prior, desired, priorPrivate);
    let planned = keepUnsetComputed(proposed, prior, config, this.attributes);
    if (changes.length > 0) {
      // What the service sets and this update can move (`updated`; a monitor's state with `enabled`) is known
      // after apply; the rest keeps its prior value (an http monitor's `cert_not_before` stays null).
      for (const [name, attribute] of Object.entries(this.attributes))
        if (
          isReadOnly(attribute) &&
          !settledOnUpdate.has(name) &&
          !this.isGenerated(name) &&
          this.moves(name, changes)
        )
          planned = setPath(planned, [{ attribute_name: name }], unknown);
      for (const change of changes) planned = this.plannedChange(planned, change, desired, config);
    }
    return {
      planned,
      requiresReplace: this.replacing(changes),
      private: changes.length > 0 ? { ...priorPrivate, write: writeNonce() } : priorPrivate,
      writes: changes.length > 0,
    };
  }

  /** Whether an update with these changes can move a read-only attribute (its `changesWith` trait). */
  private moves(attribute: string, changes: readonly Change[]): boolean {
    const member = this.kind.definition.schema.shape[camelCase(attribute)] as z.ZodType | undefined;
    const changesWith = member && traitsOf(member).changesWith;
    if (!changesWith) return true;
    return changes.some((c) => changesWith.some((m) => isUnder(c.path, pointer([m]))));
  }

  /** Config members with `{$unknown}` where Terraform decides the value only at apply. */
  private desiredMembers(config: CtyValue): Members {
    const { members, unknown: unknownAt } = toMembers(config, this.type);
    for (const steps of unknownAt) setAt(members, pointerOf(steps), { $unknown: formatPath(steps) });
    return members;
  }

  /** The engine's changes from the state (the live object as last read) to the desired members. */
  private changes(prior: CtyValue, desired: Members, priorPrivate: PrivateState): Change[] {
    // Without a record (an import), the config is taken as what made the object, as the engine adopts.
    return this.adapter.changes(desired, ctyMembersOf(prior, this.type), priorPrivate.configured);
  }

  /** A change's effect on the planned value: a member reset goes to its default; new items plan as new. */
  private plannedChange(planned: CtyValue, change: Change, desired: Members, config: CtyValue): CtyValue {
    const steps = stepsOf(change.path, this.type);
    const attribute = this.attributeAt(steps);
    if (!attribute || steps.length === 0) return planned;
    let value: CtyValue | undefined;
    if (change.value === undefined) {
      if (attribute.computed) value = resetValue(this.kind, desired, change.path, typeOfAttribute(attribute));
    } else if (attribute.nested_type) {
      const configured = getPath(config, steps);
      if (configured !== undefined && configured !== null)
        value = plannedNew(objectValue([["v", configured]]), { v: attribute }).v;
    }
    if (value === undefined) return planned;
    try {
      return setPath(planned, steps, value);
    } catch {
      return planned;
    }
  }

  /** The attribute a path names (an element of a nested list names the list's attribute). */
  private attributeAt(steps: readonly AttributePathStep[]): Attribute | undefined {
    let attributes: Attributes | undefined = this.attributes;
    let attribute: Attribute | undefined;
    for (const step of steps) {
      if (!("attribute_name" in step)) continue;
      attribute = attributes?.[step.attribute_name];
      attributes = attribute?.nested_type?.attributes;
    }
    return attribute;
  }

  /** The paths whose change replaces the object: immutable and create-only members. */
  private replacing(changes: readonly Change[]): AttributePathStep[][] {
    const out = new Map<string, AttributePathStep[]>();
    for (const change of changes) {
      const replaces = this.rules.replaceOn.some((rule) =>
        touchesPattern(
          change.path,
          rule.map((r) => (r === "*" ? "*" : camelCase(r))),
        ),
      );
      if (!replaces) continue;
      const steps = stepsOf(change.path, this.type);
      out.set(formatPath(steps), steps);
    }
    return [...out.values()];
  }

  // -------------------------------------------------------------------------
  // Apply

  async apply(
    ctx: ProviderContext,
    prior: CtyValue,
    planned: CtyValue,
    config: CtyValue,
    plannedPrivate: PrivateState,
  ): Promise<{ state: CtyValue; private: PrivateState }> {
    if (planned === null) {
      await this.destroy(ctx, prior);
      return { state: null, private: {} };
    }
    const desired = ctyMembersOf(config, this.type);
    const configured: PrivateState = { configured: leafPointers(desired) };
    // The planned change's nonce; a plan without one (made by another provider version) is a write of its own.
    const nonce = isWriteNonce(plannedPrivate.write) ? plannedPrivate.write : writeNonce();
    const stateOf = (live: Row) =>
      settledValue(
        planned,
        liveValue(
          this.kind,
          this.type,
          this.attributes,
          this.rules.sensitive,
          this.adapter.revealed(live, desired),
        ),
      );
    let row: Row | undefined;
    if (prior === null)
      row = await this.adapter.create(ctx, desired, nonce, (created, error) => {
        const diagnostics = error instanceof DiagnosticsError ? error.diagnostics : [errorDiagnostic(error)];
        throw new PartialCreateError(diagnostics, stateOf(created), configured);
      });
    else {
      const changes = this.changes(prior, desired, plannedPrivate);
      if (changes.length > 0)
        await this.adapter.update(ctx, ctyMembersOf(prior, this.type), desired, changes, nonce);
      // The object after the write, read with the others that wait at the same moment.
      if (!isKnown(planned)) {
        const before = rowOf(prior, this);
        row = await this.adapter.readBack(
          ctx,
          before,
          () => new Error(`${this.typeName} ${before.id} is gone: it was deleted outside Terraform`),
        );
      }
    }
    return { state: row ? stateOf(row) : planned, private: configured };
  }

  private async destroy(ctx: ProviderContext, prior: CtyValue): Promise<void> {
    await this.adapter.remove(ctx, ctyMembersOf(prior, this.type));
  }

  // -------------------------------------------------------------------------
  // Read, import, upgrade

  /** The state refreshed from the live object; null once the object is gone. */
  async read(
    ctx: ProviderContext,
    state: CtyValue,
    priorPrivate: PrivateState,
  ): Promise<{ state: CtyValue; private: PrivateState }> {
    if (!isObjectValue(state)) return { state: null, private: {} };
    const row = await ctx.reads.read(this.kind, rowOf(state, this));
    if (!row) return { state: null, private: {} };
    const now = liveValue(this.kind, this.type, this.attributes, this.rules.sensitive, row);
    const { imported, ...keptPrivate } = priorPrivate;
    // An import starts from the live object as a configuration describes it (resource-values.ts).
    const prior = imported ? fromMembers(importedMembers(this.kind, this.inputs, row), this.type) : state;
    const desired = ctyMembersOf(this.withoutReadOnly(prior), this.type);
    const drift = this.adapter.changes(desired, row).map((c) => c.path);
    const refreshed = refreshedValue(prior, now, this.attributes, drift);
    // A generated credential reads back masked: the state keeps what the create's answer showed.
    const kept = (name: string, value: CtyValue) => (this.isGenerated(name) ? (state[name] ?? null) : value);
    return {
      state: objectValue(Object.entries(refreshed).map(([name, value]) => [name, kept(name, value)])),
      private: keptPrivate,
    };
  }

  /** The members a configuration sets: every attribute but those only the service sets. */
  private get inputs(): string[] {
    return Object.entries(this.attributes)
      .filter(([, attribute]) => !isReadOnly(attribute))
      .map(([name]) => camelCase(name));
  }

  private isGenerated(attribute: string): boolean {
    return this.adapter.isGeneratedOutput(camelCase(attribute));
  }

  private withoutReadOnly(state: CtyObject): CtyObject {
    return objectValue(
      Object.entries(state).map(([name, value]) => {
        const attribute = this.attributes[name];
        return [name, attribute && isReadOnly(attribute) ? null : value];
      }),
    );
  }

  /** An imported object's first state: its id; the read that follows fills in the rest. */
  importState(id: string): { state: CtyObject; private: PrivateState } {
    const state = objectValue(Object.keys(this.attributes).map((name) => [name, name === "id" ? id : null]));
    return { state, private: { imported: true } };
  }

  /** A state as stored by an earlier version of this provider, as a value of today's type. */
  upgrade(version: number, json: Uint8Array): CtyValue {
    if (version > 0)
      throw new DiagnosticsError([
        {
          severity: "ERROR",
          summary: `The state of this ${this.typeName} was written by a newer vigil provider`,
          detail: `State schema version ${version}; this provider writes version 0. Use the newer provider.`,
        },
      ]);
    return decodeJson(json, this.type);
  }
}

/** The row a kind's calls need (id, and a subscription's pair) from a state. */
function rowOf(state: CtyValue, type: ResourceType): Row {
  return ctyMembersOf(state, type.type);
}

const types = new Map<string, ResourceType>();
export function resourceType(typeName: string): ResourceType {
  let type = types.get(typeName);
  if (!type) {
    type = new ResourceType(typeName);
    types.set(typeName, type);
  }
  return type;
}
