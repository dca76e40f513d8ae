/** Who holds a state lock, as recorded in the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601. */
  startedAt: string;
  /** The command line that took the lock (`vigil apply`), when known. */
  command?: string;
}

/** The state is locked by another run. */
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

/** A state file that cannot be used: unreadable, not JSON, or not a vigil state. */
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
