/**
 * What a resource does alike in every frontend that keeps its own state and writes one object per host call
 * (Terraform, Pulumi), over one kind: judge a config (the engine's checks, then the account's), diff it
 * against the object as last read, write it, and say the service's refusal. Each frontend lays the results
 * out in its own form (diagnostics at attributes, check failures at properties) and keeps what it alone has
 * (Terraform's private state and planned values; Pulumi's secrets and cancellation).
 */
import { ApiError, type MemberProblem, problemHeadline } from "../api/index.ts";
import { generatedMembers, generatedOutputName, generatedValues } from "../kinds/index.ts";
import { type AccountFindings, allowancesOf, judgeOne } from "./account-rules.ts";
import {
  derivedKeys,
  explainIdempotencyConflict,
  type KeyFor,
  SharedObjectError,
  UnfinishedCreateError,
} from "./apply/object.ts";
import { duplicateOf } from "./apply/refusals.ts";
import { diffResource } from "./diff.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import type { Change, DesiredResource } from "./model.ts";
import { getAt, isUnder, setAt } from "./pointer.ts";
import type { ObjectSession } from "./session.ts";
import { canonicalJson } from "./state/index.ts";
import { configurationCodes, type Diagnostic, validateDesired } from "./validate.ts";

/** A refusal of the service, said in full, for a frontend to lay out. */
export interface ServiceRefusal {
  /** `Could not create vigil_monitor`. */
  summary: string;
  error: ApiError;
  /** The object a duplicate refusal names: it exists already, and can be imported instead of created. */
  existing?: string;
  /** The route and the problem's headline, with every member of the document said. */
  head: string;
  /** The members the problem names, each at its pointer; empty when it names none. */
  members: readonly MemberProblem[];
  /** The refusal as a whole, for one that names no member: a 409 idempotency conflict explained, or `head`. */
  detail: string;
}

/** What the adapter needs of a frontend: its names, and its errors. */
export interface AdapterFrontend {
  /** The resource type as the frontend names it (`vigil_monitor`, `vigil:index:Monitor`): in keys and refusals. */
  name: string;
  /** Prefix of the frontend's idempotency keys (`tf`, `pu`). */
  keyPrefix: string;
  /** Salt of credential hashes: they are compared within one call only, so any salt will do and none is kept. */
  lineage: string;
  /** The frontend's error for a refusal of the service. */
  refused(refusal: ServiceRefusal): Error;
  /** The frontend's error when another resource of the same run already created the object. */
  shared(id: string): Error;
}

export class ResourceAdapter {
  readonly kind: EngineKind;
  /** Outputs holding a credential the service generated (`generatedSecret`), by the member it stands for. */
  readonly generated: ReadonlyMap<string, string>;
  readonly #frontend: AdapterFrontend;

  constructor(kind: EngineKind, frontend: AdapterFrontend) {
    this.kind = kind;
    this.#frontend = frontend;
    this.generated = new Map(
      generatedMembers(kind.definition.schema).map((member) => [member, generatedOutputName(member)]),
    );
  }

  /**
   * The engine's checks of a config's known members, each at its pointer. A check of the resource as a whole,
   * or one at, above or under a member still unknown (`open`), waits until the values are known.
   */
  validate(members: Members, open: readonly string[]): Diagnostic[] {
    return validateDesired([this.resource(members)]).filter(
      (d) =>
        !configurationCodes.has(d.code) && !open.some((u) => isUnder(d.pointer, u) || isUnder(u, d.pointer)),
    );
  }

  /**
   * What the account would refuse of this write, or store otherwise than written: a create, or (with `live`,
   * the object as last read) an update. The account is read once per client.
   */
  judge(session: ObjectSession, members: Members, live?: Members): Promise<AccountFindings> {
    return judgeOne(allowancesOf(session.ops), this.resource(members), {
      creating: live === undefined,
      ...(live && { live }),
    });
  }

  /**
   * The engine's changes from the object as last read (`live`) to the desired members. `configured`: the
   * pointers the config set at the last write; what `live` holds there is what vigil manages, so a member
   * the config drops goes back to its default. Without them (an import; a host that keeps no record), the
   * desired members are taken as what made the object, as the engine adopts.
   */
  changes(desired: Members, live: Row, configured?: readonly string[]): Change[] {
    let managed: Members | undefined;
    if (configured) {
      managed = {};
      for (const p of configured) {
        const value = getAt(live, p);
        if (value !== undefined) setAt(managed, p, value);
      }
    }
    return diffResource({
      kind: this.kind,
      desired,
      live,
      lineage: this.#frontend.lineage,
      ...(managed && { prior: { managed, secrets: {} } }),
    }).changes;
  }

  /**
   * Creates the object, under keys of `nonce` (`writeNonce`: made for this one intended create). One that
   * exists but whose later writes failed (components, update-only members) goes to `unfinished` with the
   * refusal, so the frontend keeps it in its state instead of forgetting it.
   */
  async create(
    session: ObjectSession,
    desired: Members,
    nonce: string,
    unfinished: (created: Row, refusal: unknown) => never,
  ): Promise<Row> {
    try {
      return await session.writes.create(this.kind, desired, (body, attempt) =>
        this.keys("create", nonce, [canonicalJson(body), attempt]),
      );
    } catch (error) {
      if (error instanceof UnfinishedCreateError)
        return unfinished(error.created, this.refusal("create", error.cause));
      if (error instanceof SharedObjectError) throw this.#frontend.shared(error.id);
      throw this.refusal("create", error);
    }
  }

  /** Sends the changes to the object as last read (`live`), under keys of `nonce`, made for this update. */
  async update(
    session: ObjectSession,
    live: Row,
    desired: Members,
    changes: readonly Change[],
    nonce: string,
  ): Promise<void> {
    const keyFor = this.keys("update", nonce, [live.id, live.updated, canonicalJson(changes)]);
    await this.guard("update", () => session.writes.update(this.kind, live, desired, changes, keyFor));
  }

  /**
   * Deletes the object. Its key is its id's: an id names one object of one account, so no other object's
   * delete shares it, and a state that imported an object another state deleted is answered the same success.
   */
  async remove(session: ObjectSession, live: Row): Promise<void> {
    const key = this.keys("delete", "", [live.id])("delete");
    await this.guard("delete", () => session.writes.remove(this.kind, live, key));
  }

  /** The object as it is now, read with the others that wait at the same moment; undefined once it is gone. */
  read(session: ObjectSession, row: Row): Promise<Row | undefined> {
    return this.guard("read", () => session.reads.read(this.kind, row));
  }

  /** The object after a write; `gone` is the frontend's error for one deleted outside it meanwhile. */
  readBack(session: ObjectSession, row: Row, gone: () => Error): Promise<Row> {
    return this.guard("read", async () => {
      const live = await session.reads.read(this.kind, row);
      if (!live) throw gone();
      return live;
    });
  }

  /** A create's answer with each credential the service generated under its output's member. */
  revealed(row: Row, desired: Members): Row {
    const out = { ...row };
    for (const [member, value] of generatedValues(this.kind.schemaFor(desired), desired, row))
      out[this.generated.get(member)!] = value;
    return out;
  }

  isGeneratedOutput(member: string): boolean {
    return [...this.generated.values()].includes(member);
  }

  /** Runs a call, turning the service's refusal into the frontend's error. */
  async guard<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.refusal(operation, error);
    }
  }

  /** The frontend's error for a refusal of the service; anything else is returned as it is. */
  refusal(operation: string, error: unknown): unknown {
    if (!(error instanceof ApiError)) return error;
    const { description } = error;
    const head = `${error.route}: ${problemHeadline(description)}`;
    const existing = duplicateOf(error);
    return this.#frontend.refused({
      summary: `Could not ${operation} ${this.#frontend.name}`,
      error,
      ...(existing && { existing }),
      head,
      members: description.members,
      detail: explainIdempotencyConflict(error) ?? head,
    });
  }

  /**
   * Idempotency keys from the write's nonce and what it is about: its retries replay instead of writing twice,
   * and no other write, of this state or another, is answered with its object.
   */
  private keys(operation: string, nonce: string, parts: readonly unknown[]): KeyFor {
    return derivedKeys(this.#frontend.keyPrefix, [this.#frontend.name, operation, nonce], parts);
  }

  private resource(members: Members): DesiredResource {
    return { address: `${this.kind.section}.config`, kind: this.kind.name, members };
  }
}
