/**
 * Whether the watcher's configuration is the one the state was applied with.
 * A watcher started before a newer `vigil apply` holds an old configuration:
 * healing with it would undo that apply (bring back what it deleted, put back
 * values it changed). Each address is compared the way a plan compares it,
 * with the object rebuilt from the state (what vigil last applied) standing in
 * for the live one: any change means the two differ.
 */
import { type DesiredResource, diffResource, engineKind, type State } from "../engine/index.ts";
import { resolveRefs } from "../engine/refs.ts";

/** What an address's comparison depends on, and what it found: reused while neither side changes. */
export type Verdicts = Map<string, { key: string; difference: string | undefined }>;

/**
 * How the configuration and the state differ, one line per address; empty when they agree. `verdicts`
 * keeps each address's comparison for the next call with the same configuration: a state that changed a
 * few addresses costs a comparison of those few (comparing 21,000 resources takes seconds).
 */
export function configDifferences(
  desired: readonly DesiredResource[],
  state: State,
  verdicts: Verdicts = new Map(),
): string[] {
  const out: string[] = [];
  const declared = new Set<string>();
  for (const resource of desired) {
    declared.add(resource.address);
    const entry = state.resources[resource.address];
    const members = resolveRefs(resource.members, (a) => state.resources[a]?.id) as Record<string, unknown>;
    const key = JSON.stringify([state.lineage, entry, members]);
    const known = verdicts.get(resource.address);
    if (known?.key === key) {
      if (known.difference) out.push(known.difference);
      continue;
    }
    const difference = differenceOf(resource, members, state);
    verdicts.set(resource.address, { key, difference });
    if (difference) out.push(difference);
  }
  for (const address of Object.keys(state.resources))
    if (!declared.has(address)) out.push(`${address} is managed by the state but not declared here`);
  return out;
}

function differenceOf(
  resource: DesiredResource,
  members: Record<string, unknown>,
  state: State,
): string | undefined {
  const entry = state.resources[resource.address];
  if (!entry?.id) return `${resource.address} is declared here but not managed by the state`;
  if (entry.pending) return `${resource.address} has a write of another run pending`;
  if (entry.kind !== resource.kind) return `${resource.address} is a ${entry.kind} in the state`;
  const diff = diffResource({
    kind: engineKind(resource.kind),
    desired: members,
    live: { ...entry.managed, id: entry.id },
    prior: entry,
    lineage: state.lineage,
    ...(resource.lifecycle && { lifecycle: resource.lifecycle }),
    ...(resource.sensitive && { sensitive: resource.sensitive }),
  });
  if (diff.changes.length === 0) return undefined;
  const names = diff.changes.map((c) => c.path.slice(1).replaceAll("/", ".")).join(", ");
  return `${resource.address} was applied with other values of ${names}`;
}

/** The first few differences, for one line of stderr. */
export function summarizeDifferences(differences: readonly string[], shown = 3): string {
  const head = differences.slice(0, shown).join("; ");
  const more = differences.length - shown;
  return more > 0 ? `${head}; and ${more} more` : head;
}

export interface ConfigGuardOptions {
  desired: readonly DesiredResource[];
  /** Reads the configuration again from where it came from. */
  reload?: () => Promise<readonly DesiredResource[]>;
  /** Heal is on: the warning says it stopped. */
  healing: boolean;
  log: (line: string) => void;
}

/**
 * The watcher's configuration, and whether it is the state's. Compared once per new state (not while an
 * apply's writes are in flight); when they differ, the configuration is read again and taken if the state
 * was applied with it. Otherwise it is an old configuration: heal stays off until they agree, checked
 * again at every new state and after every refresh.
 */
export class ConfigGuard {
  readonly #o: ConfigGuardOptions;
  #config: readonly DesiredResource[];
  #byAddress: Map<string, DesiredResource>;
  #verdicts: Verdicts = new Map();
  #differences: string[] | undefined;
  /** The state (lineage/serial) last compared, and the warning last said. */
  #checked = "";
  #warned = "";

  constructor(options: ConfigGuardOptions) {
    this.#o = options;
    this.#config = options.desired;
    this.#byAddress = new Map(options.desired.map((d) => [d.address, d]));
  }

  get config(): readonly DesiredResource[] {
    return this.#config;
  }

  get byAddress(): ReadonlyMap<string, DesiredResource> {
    return this.#byAddress;
  }

  /** Whether the configuration differs from the newest state: heal is off. */
  get differs(): boolean {
    return this.#differences !== undefined;
  }

  /** How the configuration differs from `state` (empty when they agree). */
  differencesFrom(state: State): string[] {
    return configDifferences(this.#config, state, this.#verdicts);
  }

  /** The state agrees with the configuration (a heal checked it, and its own writes keep it so). */
  agreed(state: State): void {
    this.#checked = `${state.lineage}/${state.serial}`;
  }

  /**
   * Compares the configuration with `state`: `again` even when this state was compared already,
   * `differences` when the caller found them, `reload` false not to read the configuration again.
   * Answers whether the configuration was replaced, and whether the two agree again after differing.
   */
  async check(
    state: State,
    options: { reload?: boolean; again?: boolean; differences?: string[] } = {},
  ): Promise<{ replaced: boolean; agreeAgain: boolean }> {
    const unchanged = { replaced: false, agreeAgain: false };
    const key = `${state.lineage}/${state.serial}`;
    const inFlight = Object.values(state.resources).some((r) => r.pending);
    if (!options.differences && !options.again && (key === this.#checked || inFlight)) return unchanged;
    this.#checked = key;
    let differences = options.differences ?? this.differencesFrom(state);
    let replaced = false;
    if (differences.length > 0 && options.reload !== false && this.#o.reload) {
      try {
        const fresh = await this.#o.reload();
        const verdicts: Verdicts = new Map();
        if (configDifferences(fresh, state, verdicts).length === 0) {
          this.#config = fresh;
          this.#byAddress = new Map(fresh.map((d) => [d.address, d]));
          this.#verdicts = verdicts;
          differences = [];
          replaced = true;
          this.#o.log(
            `Configuration read again: the state (serial ${state.serial}) was applied with it; the watcher uses it from now on.`,
          );
        }
      } catch (error) {
        this.#o.log(`Warning: the configuration could not be read again: ${(error as Error).message}`);
      }
    }
    const differed = this.differs;
    this.#differences = differences.length > 0 ? differences : undefined;
    if (differences.length === 0) {
      this.#warned = "";
      if (differed && this.#o.healing)
        this.#o.log("The configuration and the state agree again: heal resumes.");
      return { replaced, agreeAgain: differed };
    }
    const summary = summarizeDifferences(differences);
    const warning = inFlight
      ? `Warning: the state (serial ${state.serial}) holds writes of another run that are not done (${summary}).${this.#o.healing ? " Heal waits until a newer state settles them." : ""}`
      : `Warning: vigil watch is running an old configuration: the state (serial ${state.serial}) was applied with another one (${summary}). ${
          this.#o.healing
            ? "Heal stopped: healing with this configuration would undo that apply. It resumes once the configuration, read again at every new state and after every refresh, is the state's; or restart the watcher."
            : "Drift is judged against the newest state; restart the watcher with the configuration that was applied."
        }`;
    if (warning !== this.#warned) this.#o.log(warning);
    this.#warned = warning;
    return unchanged;
  }
}
