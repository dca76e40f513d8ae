/**
 * What every state backend offers beyond the engine's StateStore: workspaces,
 * the lock's holder and its forced release, and the history of saves.
 */
import type { ResourceState, State, StateStore } from "../model.ts";
import { type LockHolder, StateFileError } from "./errors.ts";

/** What a run changed, by address, against the state it found when it took the lock. */
export interface ChangeSummary {
  added: number;
  changed: number;
  removed: number;
  /** Entries with a write in flight (the journal). */
  pending: number;
  /** The first few addresses that changed, for a glance. */
  addresses: string[];
}

/**
 * One version per run: the state as the run that held the lock left it (its
 * journal saves replace the run's version as they go), so a crashed run's
 * version shows what it left pending.
 */
export interface VersionInfo {
  serial: number;
  lineage: string;
  /** ISO 8601. */
  savedAt: string;
  /** The run that saved it; absent for a version written without a lock record. */
  holder?: LockHolder;
  summary: ChangeSummary;
}

export interface WorkspaceInfo {
  name: string;
  /** Absent for a workspace that was locked but never saved. */
  serial?: number;
  savedAt?: string;
  lock?: LockHolder;
}

export interface StateBackend extends StateStore {
  readonly workspace: string;
  workspaces(): Promise<WorkspaceInfo[]>;
  /** The lock of this workspace, when a run holds one whose lease has not run out. */
  currentLock(): Promise<LockHolder | undefined>;
  /** Force-releases the lock, only when `id` names it; answers the holder it released. */
  unlock(id: string): Promise<LockHolder>;
  /** Newest first; `before` pages on (versions with a smaller serial). */
  history(page: { limit: number; before?: number }): Promise<VersionInfo[]>;
  version(serial: number): Promise<State | undefined>;
  close(): Promise<void>;
}

const shownAddresses = 10;

/**
 * Remembers each address's entry as the run found it, and says what a save
 * changes against that. Entries are compared as JSON text.
 */
export class ChangeTracker {
  readonly #entries: Map<string, string> = new Map();

  constructor(state?: State) {
    if (state) this.#entries = entryTexts(state.resources);
  }

  summarize(state: State): ChangeSummary {
    const next = entryTexts(state.resources);
    const summary: ChangeSummary = { added: 0, changed: 0, removed: 0, pending: 0, addresses: [] };
    const note = (address: string) => {
      if (summary.addresses.length < shownAddresses) summary.addresses.push(address);
    };
    for (const [address, text] of next) {
      const before = this.#entries.get(address);
      if (before === undefined) {
        summary.added++;
        note(address);
      } else if (before !== text) {
        summary.changed++;
        note(address);
      }
      if ((state.resources[address] as ResourceState).pending) summary.pending++;
    }
    for (const address of this.#entries.keys())
      if (!next.has(address)) {
        summary.removed++;
        note(address);
      }
    return summary;
  }
}

function entryTexts(resources: State["resources"]): Map<string, string> {
  return new Map(Object.entries(resources).map(([address, entry]) => [address, JSON.stringify(entry)]));
}

/** `+3 ~1 -0`, and `2 pending` when the journal holds writes in flight. */
export function formatSummary(s: ChangeSummary): string {
  const parts = [`+${s.added} ~${s.changed} -${s.removed}`];
  if (s.pending > 0) parts.push(`${s.pending} pending`);
  if (s.addresses.length > 0) {
    const more = s.added + s.changed + s.removed - s.addresses.length;
    parts.push(s.addresses.join(", ") + (more > 0 ? ` and ${more} more` : ""));
  }
  return parts.join("  ");
}

/**
 * Writes `state` as the backend's state, under its lock. Refused, unless
 * forced, when it belongs to another lineage or is older than what is saved;
 * a forced older state is saved with the next serial, so history stays ordered.
 */
export async function pushState(
  store: StateStore,
  state: State,
  options: { force: boolean; source: string },
): Promise<{ serial: number; unchanged: boolean }> {
  const lock = await store.lock();
  try {
    const current = await lock.read();
    if (current) {
      const refuse = (why: string) => {
        throw new StateFileError(
          options.source,
          `refusing to push ${options.source} to ${store.description}: ${why}. Pass --force to replace it anyway.`,
        );
      };
      if (!options.force && current.lineage !== state.lineage)
        refuse(`its lineage is ${state.lineage}, the saved state's is ${current.lineage} (another state)`);
      if (!options.force && state.serial < current.serial)
        refuse(`its serial ${state.serial} is older than the saved ${current.serial}`);
      if (state.serial === current.serial && JSON.stringify(state) === JSON.stringify(current))
        return { serial: state.serial, unchanged: true };
      if (!options.force && state.serial === current.serial)
        refuse(`it differs from the saved state at the same serial ${state.serial}`);
      if (state.serial <= current.serial) state.serial = current.serial + 1;
    }
    await lock.write(state);
    return { serial: state.serial, unchanged: false };
  } finally {
    await lock.release();
  }
}
