/** Who holds a state lock: recorded when it is taken, shown to anyone who finds it held. */
export interface LockHolder {
  /** Names this hold: `vigil state unlock ID` releases only the lock with this id. */
  id: string;
  /** `apply`, `destroy`, `import`, `state rm`, `state push`. */
  operation: string;
  user: string;
  host: string;
  pid: number;
  /** The vigil version that took it. */
  version: string;
  /** ISO 8601. */
  takenAt: string;
  /** ISO 8601: the lease ends then unless the holder renews it. */
  expiresAt: string;
  /** The CI run that holds it, when the environment names one. */
  ciUrl?: string;
}

/** The state is locked by another run (after waiting `--lock-timeout` for it), or an unlock named the wrong lock. */
export class StateLockedError extends Error {
  override readonly name = "StateLockedError";
  readonly lockFile: string | undefined;
  readonly holder: LockHolder | undefined;

  constructor(message: string, details: { lockFile?: string; holder?: LockHolder } = {}) {
    super(message);
    this.lockFile = details.lockFile;
    this.holder = details.holder;
  }
}

/** A state that cannot be used: unreadable, not JSON, not a vigil state, or refused by a push. */
export class StateFileError extends Error {
  override readonly name = "StateFileError";
  readonly file: string;
  /** JSON pointer of the first bad member, for a schema failure ("" is the whole document). */
  readonly pointer: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(
    file: string,
    message: string,
    details: { pointer?: string; line?: number; column?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.file = file;
    this.pointer = details.pointer;
    this.line = details.line;
    this.column = details.column;
  }
}

/** The state backend cannot be reached or used (connection, permissions, schema), with the password redacted. */
export class StateBackendError extends Error {
  override readonly name = "StateBackendError";
}
