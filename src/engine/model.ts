/**
 * The engine's vocabulary: desired resources (what the config says), the state
 * (what vigil manages in the account), and plans (what apply will do). Every
 * frontend speaks these types; only the engine turns them into API calls.
 */
import type { KindName } from "../kinds/index.ts";

export type { KindName };

/** A reference to another resource of the config: resolves to that resource's id at apply time. */
export interface Ref {
  $ref: string;
}

export function isRef(value: unknown): value is Ref {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Ref).$ref === "string" &&
    Object.keys(value).length === 1
  );
}

/** Per-resource lifecycle options. Paths are member paths, dotted (`settings.timeout`) or JSON pointers. */
export interface Lifecycle {
  /** The plan refuses to delete or replace it. */
  protect?: boolean;
  /** Differences under these paths are neither shown nor sent. */
  ignoreChanges?: string[];
  /** Removing it from the config forgets it instead of deleting it. */
  retainOnDelete?: boolean;
  /** A change under these paths replaces the resource. */
  replaceOnChanges?: string[];
}

/** Where a resource was declared, for diagnostics (a YAML file position, a Pulumi URN...). */
export interface SourceLocation {
  file?: string;
  line?: number;
  column?: number;
}

/** One resource of the desired state. `members` may hold `Ref`s wherever the kind takes an id. */
export interface DesiredResource {
  /** `<section>.<name>`, e.g. `monitors.checkout-api`. */
  address: string;
  kind: KindName;
  members: Record<string, unknown>;
  lifecycle?: Lifecycle;
  source?: SourceLocation;
  /**
   * JSON pointers of members kept secret like credentials (hashed in the state, masked in plans), though
   * the kind does not declare them so: a value that came from the environment, say a token in a header.
   */
  sensitive?: string[];
}

/** A write recorded in the state before it is sent, so a crash can be resolved on the next run. */
export interface PendingOperation {
  action: "create" | "update" | "delete";
  /** The `Idempotency-Key` the write carries (a bulk request's key is shared by its items). */
  idempotencyKey: string;
  /** SHA-256 of the body as sent, credentials included, so an identical retry can replay the key. */
  bodyDigest: string;
  /** Unix seconds, on the engine's clock. */
  startedAt: number;
  /** The job of a bulk write, once the API has answered 202. */
  jobId?: string;
}

/** What the state holds for one address. */
export interface ResourceState {
  kind: KindName;
  /** Absent only while the first create is pending. */
  id?: string;
  /** The natural key's members as last seen (ids, not refs), for adoption after a lost create. */
  naturalKey: Record<string, unknown>;
  /** The members vigil last applied, refs resolved to ids; credentials replaced by their hashes. */
  managed: Record<string, unknown>;
  /** JSON pointer of each credential member → salted hash of the value last applied. */
  secrets?: Record<string, string>;
  /** Kept from the config, so a resource removed from the config is still protected or retained. */
  lifecycle?: Pick<Lifecycle, "protect" | "retainOnDelete">;
  pending?: PendingOperation;
}

export const stateFormatVersion = 1;

/** The inventory of what vigil manages in one account. */
export interface State {
  format_version: typeof stateFormatVersion;
  /** Random id given when the state is first created; stays for its whole life. */
  lineage: string;
  /** Increases with every save. */
  serial: number;
  accountId?: string;
  /** Per kind, the `syncCursor` of its last full list. */
  syncCursors: Partial<Record<KindName, string>>;
  resources: Record<string, ResourceState>;
}

/** Where the state lives. Implementations: a local JSON file (default) and memory (tests). */
export interface StateStore {
  /** Takes the store's lock, or throws a `StateLockedError` naming who holds it. */
  lock(): Promise<StateLock>;
  /** The saved state without taking the lock, for runs that only read (a plan records the serial it read). */
  read(): Promise<State | undefined>;
  /** A human name for messages (`file .vigil/state.json`). */
  readonly description: string;
}

export interface StateLock {
  /** The saved state, or undefined when none exists yet. */
  read(): Promise<State | undefined>;
  /** Replaces the saved state atomically: a crash leaves the old state or the new one, never a mix. */
  write(state: State): Promise<void>;
  release(): Promise<void>;
}

export type ActionType = "create" | "update" | "replace" | "delete" | "forget" | "import" | "no-op";

/**
 * One field-level change, as an RFC 6902 operation on the resource's managed
 * members, with `before` (the live value) added. Sensitive values are masked.
 */
export interface Change {
  op: "add" | "remove" | "replace";
  path: string;
  value?: unknown;
  before?: unknown;
  /** The live value differs from what vigil last applied: someone changed it outside vigil. */
  drift?: boolean;
  sensitive?: boolean;
  /** A reference whose id is known only after apply. */
  unknown?: boolean;
}

export interface PlannedAction {
  address: string;
  kind: KindName;
  action: ActionType;
  /** The live object's id (absent for a create). */
  id?: string;
  /** Why, in words: `not in the config`, `type cannot change in place`, `drift`... */
  reasons: string[];
  changes: Change[];
  /** Replace only: which half goes first (delete-first when the new object's natural key would collide). */
  replaceOrder?: "create-first" | "delete-first";
  /** A delete the API performs itself when it deletes this other address: no call is made. */
  cascadedBy?: string;
  /** What the plan saw, so applying a saved plan can refuse when it changed. */
  observed?: { updated?: number; digest?: string };
}

export interface PlanSummary {
  create: number;
  update: number;
  replace: number;
  delete: number;
  forget: number;
  import: number;
  "no-op": number;
}

/**
 * A member the configuration leaves unset whose live value is not what the service stores by default:
 * changed outside vigil (a monitor paused by hand). Reported, never reverted (`drift-notes.ts`).
 */
export interface PlanNote {
  type: "unmanaged_drift";
  address: string;
  kind: KindName;
  id: string;
  /** JSON pointer of the member, in the API's names. */
  path: string;
  live: unknown;
  /** What the service stores when the member is left out. */
  default: unknown;
}

export const planFormatVersion = "1.0";

/** A plan: the actions apply will take, in order, and what it saw. Saved as JSON (docs/plan-format.md). */
export interface Plan {
  format_version: typeof planFormatVersion;
  created: number;
  lineage: string;
  /** The state serial the plan was made from. */
  serial: number;
  accountId: string;
  /** SHA-256 of the desired config (credentials included, never shown). */
  configDigest: string;
  syncCursors: Partial<Record<KindName, string>>;
  /** Live objects per kind when planned: checking a saved plan reads each object or lists the kind, whichever is fewer. */
  liveCounts?: Partial<Record<KindName, number>>;
  actions: PlannedAction[];
  summary: PlanSummary;
  warnings: string[];
  /** Changes outside vigil to members the configuration leaves unset: shown, not applied. */
  notes?: PlanNote[];
  /** Made with refresh-only: it shows what changed outside vigil, and cannot be applied. */
  refreshOnly?: true;
  /** Where a saved plan's configuration was read (the CLI's `plan --out`): applying it reads the same files. */
  config?: PlanSources;
  /**
   * Present (`true`) on a plan the CLI made on its embedded sandbox (`plan --sandbox --out`): applying it
   * takes `--sandbox` too, and a plan without it is never applied to the embedded sandbox.
   */
  sandbox?: true;
}

/**
 * The configuration a saved plan was made from. `dir` is the directory the plan was made in, relative to
 * the plan file's own directory; `paths` (as given to plan) and each file's `path` are relative to `dir`.
 */
export interface PlanSources {
  dir: string;
  paths: string[];
  /** Each file read, with an HMAC-SHA256 of its bytes keyed by the lineage (as `configDigest`). */
  files: { path: string; digest: string }[];
}
