/**
 * The CLI's output boundary: everything written to stdout and stderr, by any command, renderer, progress
 * bar, prompt or error path, passes through the run's secrets (`SecretValues`) on its way out. Commands
 * add what they learn (the config's `${env:...}` values and credentials, the API token, the state URL's
 * password); nothing that prints needs to know, so no new message can bypass it. Each write is redacted
 * whole: vigil writes whole lines, so a secret is never split between two writes.
 */
import { SecretValues } from "../engine/secret-values.ts";

const secrets = new SecretValues();
let guarded = false;

/** Puts the guard on the process's stdout and stderr (once), and adds `values` to what it keeps out. */
export function guardOutput(values?: SecretValues | string): void {
  if (typeof values === "string") secrets.add(values);
  else secrets.addAll(values);
  if (guarded) return;
  guarded = true;
  guard(process.stdout);
  guard(process.stderr);
}

/** A text with the run's secrets taken out, for output that leaves by another way (`watch --notify`). */
export function redactOutput(text: string): string {
  return secrets.redact(text);
}

function guard(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (secrets.size === 0) return write(chunk, ...rest);
    if (typeof chunk === "string") return write(secrets.redact(chunk), ...rest);
    if (chunk instanceof Uint8Array) {
      const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("utf8");
      const redacted = secrets.redact(text);
      return write(redacted === text ? chunk : Buffer.from(redacted, "utf8"), ...rest);
    }
    return write(chunk, ...rest);
  }) as typeof stream.write;
}

/** The password of a `postgres://user:password@host/db` state URL, as written and decoded. */
export function stateUrlPassword(url: string): string[] {
  const written = /^postgres(?:ql)?:\/\/[^:/@]*:(.*)@[^@]*$/s.exec(url)?.[1];
  if (!written) return [];
  try {
    return [written, decodeURIComponent(written)];
  } catch {
    // A `%` not followed by two hex digits: the password is only what is written.
    return [written];
  }
}
