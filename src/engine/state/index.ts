export {
  type ChangeSummary,
  ChangeTracker,
  formatSummary,
  pushState,
  type StateBackend,
  type VersionInfo,
  type WorkspaceInfo,
} from "./backend.ts";
export { type LockHolder, StateBackendError, StateFileError, StateLockedError } from "./errors.ts";
export { FileStateStore, type FileStateStoreOptions } from "./file-store.ts";
export { ciRunUrl, describeHolder, newHolder, type StoreOptions } from "./lock.ts";
export { MemoryStateStore } from "./memory-store.ts";
export { canonicalJson, digestOf, hashSecret, newState, stateSchema, validateState } from "./state.ts";
// The PostgreSQL store is imported by path (./postgres-store.ts) where it is used, so the driver loads only then.
export {
  isPostgresUrl,
  type PostgresUrl,
  parsePostgresUrl,
  postgresUrlParameters,
  redactUrl,
} from "./url.ts";
