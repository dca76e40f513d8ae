/**
 * A closed pipe ends a command quietly, as Unix tools do: `vigil state list | head -1` prints its line and
 * exits 0, where Node would crash on the unhandled `EPIPE` with a stack trace. This holds for every
 * command, since it is decided here, on the process's stdout and stderr, and not by each command.
 *
 * Once a stream is closed, what is still written to it is dropped. A command ends at once, unless it
 * holds something that must be let go first (`finishing`: the state's lock or database connection, the
 * embedded sandbox to save, an apply under way, files being written): it then finishes what it started,
 * without output, and ends as soon as it lets go. A command that would run on for ever (`vigil watch`)
 * says how it stops (`whenOutputCloses`).
 */

let closed = false;
let holds = 0;
const stops = new Set<() => void>();

/** Puts the rule on the process's stdout and stderr. Called once, before anything prints. */
export function endQuietlyWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on("error", (error: NodeJS.ErrnoException) => {
      // Anything else is not the reader going away: it stays the crash it was.
      if (error.code !== "EPIPE") throw error;
      outputClosed(stream);
    });
}

function outputClosed(stream: NodeJS.WriteStream): void {
  drop(stream);
  if (closed) return;
  closed = true;
  // Nothing failed: the reader had what it wanted. A command that finishes first may still fail (exit 1).
  process.exitCode = 0;
  if (stops.size > 0) for (const stop of stops) stop();
  else if (holds === 0) process.exit();
}

/** Further writes to a closed stream succeed without writing, so nothing else fails on it. */
function drop(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") process.nextTick(done as () => void);
    return true;
  }) as typeof stream.write;
}

/**
 * Runs `fn` to its end even when the output closes meanwhile; if it did, the process then exits (with
 * the exit code set so far: 0, or what the command set since).
 */
export async function finishing<T>(fn: () => Promise<T>): Promise<T> {
  holds++;
  try {
    return await fn();
  } finally {
    holds--;
    if (closed && holds === 0 && stops.size === 0) process.exit();
  }
}

/** `stop` ends a long-running command when its output closes; the returned function forgets it. */
export function whenOutputCloses(stop: () => void): () => void {
  stops.add(stop);
  if (closed) stop();
  return () => stops.delete(stop);
}
