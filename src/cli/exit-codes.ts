/** vigil's exit codes (docs/cli.md, "Exit codes"); apart from errors.ts, so that start-up need not load it. */
export const exitCodes = { ok: 0, error: 1, changes: 2, timedOut: 124, interrupted: 130 } as const;
