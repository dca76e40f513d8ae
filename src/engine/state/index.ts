export { type LockHolder, StateFileError, StateLockedError } from "./errors.ts";
export { FileStateStore, type FileStateStoreOptions } from "./file-store.ts";
export { MemoryStateStore } from "./memory-store.ts";
export { canonicalJson, digestOf, hashSecret, newState, stateSchema, validateState } from "./state.ts";
