/**
 * A closed pipe ends a command quietly, as Unix tools do: `vigil state list | head -1` prints its line and
 * exits 0, where Node would crash on the unhandled `EPIPE` with a stack trace. This holds for every
 * command, since it is decided here, on the process's stdout and stderr, and not by each command.
 *
 * Once a stream is closed, what is still written to it is dropped, and the command ends as it would have:
 * every command prints last what it did, so nothing is cut short that was under way (an apply's writes,
 * a held lock, the embedded sandbox saved on close, a saved plan, export's files). The closed pipe itself
 * is no failure (exit 0); what the command decides afterwards stands (1 if an apply's write failed). A
 * command that would run on for ever (`vigil watch`, `vigil sandbox`) says how it stops
 * (`whenOutputCloses`).
 */

let closed = false;
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
  process.exitCode = 0;
  for (const stop of stops) stop();
}

/** Further writes to a closed stream succeed without writing, so nothing else fails on it. */
function drop(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") process.nextTick(done as () => void);
    return true;
  }) as typeof stream.write;
}

/** `stop` ends a long-running command when its output closes; the returned function forgets it. */
export function whenOutputCloses(stop: () => void): () => void {
  stops.add(stop);
  if (closed) stop();
  return () => stops.delete(stop);
}
