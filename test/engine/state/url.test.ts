import { rm } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  isPostgresUrl,
  postgresUrlParameters,
  redactUrl,
  StateBackendError,
} from "../../../src/engine/state/index.ts";
import { PostgresStateStore } from "../../../src/engine/state/postgres-store.ts";
import { vigil, workspace } from "../../cli/vigil.ts";

describe("PostgreSQL state URLs", () => {
  it("are told from file paths", () => {
    expect(isPostgresUrl("postgres://h/db")).toBe(true);
    expect(isPostgresUrl("POSTGRESQL://h/db")).toBe(true);
    expect(isPostgresUrl(".vigil/postgres://x")).toBe(false);
    expect(isPostgresUrl("state.json")).toBe(false);
  });

  it("never show a password, in the user part or as a parameter", () => {
    expect(redactUrl("postgres://vigil:p%40ss@db:5432/infra?schema=a")).toBe(
      "postgres://vigil:***@db:5432/infra?schema=a",
    );
    expect(redactUrl("postgresql://db/infra?sslmode=require&password=hunter2&x=1")).toBe(
      "postgresql://db/infra?sslmode=require&password=***&x=1",
    );
    expect(redactUrl("postgres://vigil@db/infra")).toBe("postgres://vigil@db/infra");
    const store = new PostgresStateStore("postgres://vigil:hunter2@db:5432/infra?schema=team_a", {
      workspace: "prod",
    });
    expect(store.description).toBe(
      "PostgreSQL postgres://vigil:***@db:5432/infra (schema team_a, workspace prod)",
    );
  });

  it("refuse a schema name that is not a plain identifier", () => {
    for (const schema of ["Team", "a-b", "1st", 'x";drop', "__proto__x".repeat(10)])
      expect(() => new PostgresStateStore(`postgres://db/x?schema=${encodeURIComponent(schema)}`)).toThrow(
        "is not a valid schema name",
      );
  });
});

/** Each case: a URL, the part the message must name and the encoding it must give. */
const unencoded: { url: string; says: string }[] = [
  {
    url: "postgres://vigil:Pa#ss-9f2@db:5432/infra?schema=a",
    says: 'the password holds "#", which ends the URL there; write it as %23',
  },
  {
    url: "postgres://vigil:Pa/ss-9f2@db:5432/infra",
    says: 'the password holds "/", which ends the host part there; write it as %2F',
  },
  {
    url: "postgres://vigil:Pa?ss-9f2@db:5432/infra",
    says: 'the password holds "?", which ends the host part there; write it as %3F',
  },
  {
    url: "postgres://vigil:Pa%ss-9f2@db:5432/infra",
    says: 'the password holds a "%" that starts no %XX escape; write it as %25',
  },
  // Digits before the character make the rest a valid port, path or query: still refused.
  { url: "postgres://vigil:12#ss-9f2@db:5432/infra", says: 'the password holds "#"' },
  { url: "postgres://vigil:12/ss-9f2@db:5432/infra", says: 'the password holds "/"' },
  { url: "postgres://vigil:12?schema=ss-9f2@db:5432/infra", says: 'the password holds "?"' },
  { url: "postgres://vig#il:pw-9f2@db/infra", says: 'the user name holds "#"' },
  {
    url: "postgres://vigil:%FFss-9f2@db/infra",
    says: "the password holds %XX escapes that are not UTF-8 text",
  },
  {
    url: "postgres://db/infra?options=-c%20x=50%",
    says: 'the parameter options holds a "%" that starts no %XX escape',
  },
  { url: "postgres://db:port/infra", says: "its port is not a number" },
];

describe("a state URL that does not mean what was written", () => {
  for (const { url, says } of unencoded)
    it(`is refused, naming the part: ${url.replace(/:[^:@]*@/, ":…@")}`, () => {
      let message = "";
      try {
        new PostgresStateStore(url);
      } catch (error) {
        expect(error).toBeInstanceOf(StateBackendError);
        message = (error as Error).message;
      }
      expect(message).toContain(`The PostgreSQL state URL is not valid: ${says}`);
      // One line, saying how to encode, never quoting the password or any part of it.
      if (!says.includes("port"))
        expect(message).toContain('in a URL, "#" is %23, "/" %2F, "?" %3F, "%" %25, "@" %40');
      expect(message).not.toContain("\n");
      expect(message).not.toMatch(/ss-9f2|Pa.ss|12.ss/);
    });

  it("reads what the user meant once encoded, and URLs with @ where they belong", () => {
    const store = new PostgresStateStore("postgres://vigil:Pa%23%2F%3F%25ss@db:5432/infra?schema=a");
    expect(store.description).toBe(
      "PostgreSQL postgres://vigil:***@db:5432/infra (schema a, workspace default)",
    );
    for (const url of [
      "postgres://vigil:p@ss@db/infra",
      "postgres://db:5432/infra?application_name=me@ci&sslmode=require",
      "postgres://[::1]:5432/infra",
    ])
      expect(() => new PostgresStateStore(url), url).not.toThrow();
  });
});

describe("a state URL's parameters", () => {
  it("are each given at most once: ?schema=a&schema=b is refused, not read as a", () => {
    expect(() => new PostgresStateStore("postgres://db/x?schema=a&schema=b")).toThrow(
      "The PostgreSQL state URL is not valid: the parameter schema is given 2 times; give it once",
    );
    expect(() => new PostgresStateStore("postgres://db/x?sslmode=require&schema=a&sslmode=disable")).toThrow(
      "the parameter sslmode is given 2 times; give it once",
    );
  });

  it("are those vigil and the driver know, listed when another is given", () => {
    expect(() => new PostgresStateStore("postgres://db/x?shema=a")).toThrow(
      `The PostgreSQL state URL is not valid: the parameter shema is not one vigil knows; allowed: ${postgresUrlParameters.join(", ")}`,
    );
    for (const name of ["database", "replication", "binary", "connect_timeout", "__proto__"])
      expect(() => new PostgresStateStore(`postgres://db/x?${name}=1`), name).toThrow(
        `the parameter ${name} is not one vigil knows`,
      );
    expect(postgresUrlParameters).toContain("sslmode");
    const store = new PostgresStateStore(
      "postgres://db/x?sslmode=require&application_name=ci&options=-c%20statement_timeout%3D5s&schema=s",
    );
    expect(store.schema).toBe('"s"');
  });
});

describe("the binary", () => {
  it("refuses a malformed state URL in one line, before reading anything, never quoting the password", async () => {
    const dir = await workspace({ "m.yaml": "monitors: {}\n" });
    for (const [args, env] of [
      [["plan"], { VIGIL_STATE: "postgres://vigil:Pa#ss-9f2@127.0.0.1:1/db" }],
      [["apply", "--auto-approve", "--state", "postgres://vigil:Pa%ss-9f2@127.0.0.1:1/db"], {}],
      [["state", "list", "--state", "postgres://vigil:pw@127.0.0.1:1/db?schema=a&schema=b"], {}],
    ] as const) {
      // The API's address refuses connections: a run that read anything would say so on stderr.
      const run = await vigil(args, {
        cwd: dir,
        env: { VIGIL_ENDPOINT: "http://127.0.0.1:1", VIGIL_TOKEN: "t", ...env },
      });
      expect(run.stderr, args.join(" ")).toMatch(/^Error: The PostgreSQL state URL is not valid: [^\n]+\n$/);
      expect(run.stderr).not.toMatch(/ss-9f2|Pa.ss|at .*\.ts:/);
      expect(run.code).toBe(1);
    }
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});
