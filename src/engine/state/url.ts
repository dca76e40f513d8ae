/**
 * PostgreSQL state URLs: telling one from a file path, reading it, and
 * showing it without its password.
 *
 * A URL holding a password with an unencoded `#`, `/`, `?` or `%` does not
 * mean what was written (the host part ends early, or a `%` escapes nothing),
 * so it is refused in one line naming the part at fault and its encoding,
 * never quoting the password. Query parameters are those the driver acts
 * on, each at most once: anything else would be silently ignored or
 * overridden (`?schema=a&schema=b` used `a`, the driver `b`).
 */
import { StateBackendError } from "./errors.ts";

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with its password replaced by `***`, for messages. */
export function redactUrl(url: string): string {
  return url
    .replace(/^(postgres(?:ql)?:\/\/[^:/@?#]*:)[^@/?#]*@/i, "$1***@")
    .replace(/([?&]password=)[^&#]*/gi, "$1***");
}

/**
 * The query parameters a state URL may hold: vigil's `schema`, and those
 * node-postgres reads from a connection string (pg-connection-string and
 * pg's ConnectionParameters). `database` is not one (the URL's path is), nor
 * `replication` or `binary`, which would change what vigil's queries return.
 */
export const postgresUrlParameters = [
  "schema",
  "host",
  "port",
  "user",
  "password",
  "sslmode",
  "ssl",
  "sslcert",
  "sslkey",
  "sslrootcert",
  "sslnegotiation",
  "uselibpqcompat",
  "application_name",
  "fallback_application_name",
  "options",
  "client_encoding",
  "statement_timeout",
  "lock_timeout",
  "idle_in_transaction_session_timeout",
  "query_timeout",
] as const;

const allowed: ReadonlySet<string> = new Set(postgresUrlParameters);
/** The parameters whose values may hold an `@` (a user `me@server`, an application `ci@runner`). */
const mayHoldAt: ReadonlySet<string> = new Set([
  "user",
  "password",
  "application_name",
  "fallback_application_name",
  "options",
]);

/** How a URL writes the characters that end or escape its parts. */
const encodings = 'in a URL, "#" is %23, "/" %2F, "?" %3F, "%" %25, "@" %40, ":" %3A';
const plainName = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface PostgresUrl {
  /** The URL for the driver: vigil's own `schema` parameter removed. */
  connectionString: string;
  schema: string;
  /** For messages: the password shown as `***`. */
  shown: string;
  /** The password in every form a message from the server or the driver could hold it. */
  secrets: string[];
}

/**
 * Reads a state URL, or throws a StateBackendError saying which part of it is
 * wrong and how to write it; no message quotes the user name or password.
 */
export function parsePostgresUrl(url: string): PostgresUrl {
  const refuse = (what: string): never => {
    throw new StateBackendError(`The PostgreSQL state URL is not valid: ${what}`);
  };
  const scheme =
    /^postgres(ql)?:\/\//i.exec(url)?.[0] ?? refuse("it starts with postgres:// or postgresql://");
  const rest = url.slice(scheme.length);

  const hash = rest.indexOf("#");
  if (hash !== -1)
    refuse(`${partAt(rest, hash)} holds "#", which ends the URL there; write it as %23 (${encodings})`);
  for (const bad of rest.matchAll(/%(?![0-9A-Fa-f]{2})/g))
    refuse(
      `${partAt(rest, bad.index)} holds a "%" that starts no %XX escape; write it as %25 (${encodings})`,
    );
  unencodedInUserInfo(rest, refuse);

  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const hostPort = rest.slice(rest.lastIndexOf("@", firstOf(rest, "/?")) + 1, firstOf(rest, "/?"));
    return refuse(
      /:[^\]]*[^0-9\]]/.test(hostPort.replace(/^\[[^\]]*\]/, ""))
        ? "its port is not a number (postgres://user:password@host:5432/database)"
        : `it cannot be read as postgres://user:password@host:5432/database?schema=NAME (percent-encode the user name and password: ${encodings})`,
    );
  }
  const decoded = (part: string, text: string, decode: (t: string) => string) => {
    try {
      return decode(text);
    } catch {
      return refuse(`${part} holds %XX escapes that are not UTF-8 text (${encodings})`);
    }
  };
  decoded("the user name", parsed.username, decodeURIComponent);
  const password = decoded("the password", parsed.password, decodeURIComponent);
  decoded("the database name", parsed.pathname, decodeURI);
  const counts = new Map<string, number>();
  for (const name of parsed.searchParams.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const [name, count] of counts) {
    if (!plainName.test(name))
      refuse(
        `its query holds a parameter whose name is not a name; if the password holds "?", percent-encode it (${encodings})`,
      );
    if (!allowed.has(name))
      refuse(`the parameter ${name} is not one vigil knows; allowed: ${postgresUrlParameters.join(", ")}`);
    if (count > 1) refuse(`the parameter ${name} is given ${count} times; give it once`);
  }

  const schema = parsed.searchParams.get("schema") ?? "vigil";
  parsed.searchParams.delete("schema");
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new StateBackendError(
      `schema=${JSON.stringify(schema)} in the state URL is not a valid schema name: use 1 to 63 lower-case letters, digits or "_", not starting with a digit`,
    );
  const connectionString = parsed.toString();
  return {
    connectionString,
    schema,
    shown: redactUrl(connectionString),
    secrets: [
      password,
      parsed.password,
      parsed.searchParams.get("password") ?? "",
      process.env.PGPASSWORD ?? "",
    ].filter((s) => s.length >= 3),
  };
}

/** The index of the first of `chars` in `text`, or its length. */
function firstOf(text: string, chars: string): number {
  let first = text.length;
  for (const c of chars) {
    const i = text.indexOf(c);
    if (i !== -1 && i < first) first = i;
  }
  return first;
}

/**
 * A `/` or `?` in the user name or password ends the host part early: the
 * `@` that ends them then comes after it, in the path or the query. An `@`
 * in the value of a parameter that may hold one (`?application_name=me@ci`)
 * is not one.
 */
function unencodedInUserInfo(rest: string, refuse: (what: string) => never): void {
  const end = firstOf(rest, "/?");
  if (end === rest.length || rest.slice(0, end).includes("@")) return;
  const query = rest.indexOf("?");
  for (let at = rest.indexOf("@", end); at !== -1; at = rest.indexOf("@", at + 1)) {
    if (query !== -1 && at > query) {
      const pairStart = Math.max(rest.lastIndexOf("&", at), query) + 1;
      const pair = rest.slice(pairStart, at);
      const equals = pair.indexOf("=");
      if (equals !== -1 && mayHoldAt.has(pair.slice(0, equals))) continue;
    }
    const part = rest.slice(0, end).includes(":") ? "the password" : "the user name";
    refuse(
      `${part} holds "${rest[end]}", which ends the host part there; write it as ${rest[end] === "/" ? "%2F" : "%3F"} (${encodings})`,
    );
  }
}

/**
 * Which part of a URL (the text after `scheme://`) an index is in, in words,
 * for a message; it names a parameter only by a plain name, never quotes a
 * value.
 */
function partAt(rest: string, index: number): string {
  const userEnd = rest.lastIndexOf("@");
  if (index < userEnd) {
    const colon = rest.indexOf(":");
    return colon !== -1 && colon < index ? "the password" : "the user name";
  }
  const hostEnd = userEnd + 1 + firstOf(rest.slice(userEnd + 1), "/?#");
  if (index < hostEnd) return "the host";
  const query = rest.indexOf("?", hostEnd);
  if (query === -1 || index < query) return "the database name";
  const pairStart = Math.max(rest.lastIndexOf("&", index), query) + 1;
  const name = rest.slice(pairStart, index).split("=")[0]!;
  return plainName.test(name) && rest.slice(pairStart, index).includes("=")
    ? `the parameter ${name}`
    : "the query";
}
