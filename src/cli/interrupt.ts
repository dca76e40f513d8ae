/**
 * Ctrl+C (SIGINT) ends every command the same way: one line on stderr saying what happened, whatever the
 * command holds released (the state lock, the connection and the embedded sandbox), exit 130, as a shell
 * reports a command ended by Ctrl+C. Never a stack trace: stopping a command is a user's action.
 *
 * A command stage that must not simply end takes Ctrl+C for itself while it runs (`onInterrupt`): the
 * approval prompt answers "cancelled", an apply stops starting writes and lets those under way end and be
 * saved. Either way a second Ctrl+C exits at once, saying so, as Terraform does.
 */
import { exitCodes } from "./exit-codes.ts";

/** How long releasing what a command holds may take before it exits anyway (a database that went away). */
const releaseBoundMs = 5000;

type Handler = () => void;

/** The stages that take Ctrl+C for themselves, the innermost last. */
const handlers: Handler[] = [];
/** What Ctrl+C releases, in the order taken: released in reverse. */
const held: (() => Promise<void>)[] = [];
let interrupted = false;

/** Puts the rule on the process. Called once, before any command runs. */
export function handleInterrupts(): void {
  process.on("SIGINT", () => {
    const handler = handlers.at(-1);
    if (handler) handler();
    else if (interrupted) exitAtOnce();
    else void endCommand();
  });
}

/** Whether Ctrl+C has ended the command: a stage about to start (an apply's writes) must not. */
export function wasInterrupted(): boolean {
  return interrupted;
}

/**
 * What a stage awaits once Ctrl+C has ended the command (an apply's approval that came just after it): it
 * never settles, since the process exits as soon as what the command held is released.
 */
export function interruptedEnding(): Promise<never> {
  return new Promise<never>(() => {});
}

/** While the returned function is not called, Ctrl+C calls `handler` instead of ending the command. */
export function onInterrupt(handler: Handler): () => void {
  handlers.push(handler);
  return () => {
    const at = handlers.lastIndexOf(handler);
    if (at >= 0) handlers.splice(at, 1);
  };
}

/** Something Ctrl+C releases before the command ends (a lock, a connection); the returned function forgets it. */
export function releaseOnInterrupt(release: () => Promise<void>): () => void {
  held.push(release);
  return () => {
    const at = held.lastIndexOf(release);
    if (at >= 0) held.splice(at, 1);
  };
}

/** A second Ctrl+C while the first is being handled: no more waiting. */
export function exitAtOnce(note = ""): never {
  process.stderr.write(`Interrupted again: exiting at once.${note ? ` ${note}` : ""}\n`);
  process.exit(exitCodes.interrupted);
}

async function endCommand(): Promise<void> {
  interrupted = true;
  // Ctrl+C on a terminal leaves `^C` on the line being written: the message starts a line of its own.
  process.stderr.write(
    "\nInterrupted: stopped before it finished; nothing was changed in the account. Releasing what it held (Ctrl+C again to exit at once).\n",
  );
  const bound = new Promise<void>((done) => setTimeout(done, releaseBoundMs).unref());
  const releases = (async () => {
    for (const release of held.splice(0).reverse()) await release().catch(() => {});
  })();
  await Promise.race([releases, bound]);
  process.exit(exitCodes.interrupted);
}
