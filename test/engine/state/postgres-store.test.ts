/** What only the PostgreSQL store does: its schema (created once, migrated, never downgraded), permissions, and connection failures. */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ciRunUrl, newState, StateBackendError } from "../../../src/engine/state/index.ts";
import { schemaVersion } from "../../../src/engine/state/postgres-schema.ts";
import { PostgresStateStore } from "../../../src/engine/state/postgres-store.ts";
import { freshSchema, postgresForTests } from "../../helpers/postgres.ts";

const server = await postgresForTests();
afterAll(() => server?.stop());

async function sql(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: server!.url() });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describe.skipIf(!server)("PostgresStateStore", () => {
  it("creates its schema once when eight runs start at once on an empty database", async () => {
    const schema = freshSchema();
    const stores = Array.from({ length: 8 }, () => new PostgresStateStore(server!.url(schema)));
    try {
      expect(await Promise.all(stores.map((s) => s.read()))).toEqual(Array(8).fill(undefined));
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
    const version = await sql(`SELECT version FROM ${schema}.schema_version`);
    expect(version.rows).toEqual([{ version: schemaVersion }]);
  });

  it("refuses a schema made by a newer vigil, changing nothing", async () => {
    const schema = freshSchema();
    const store = new PostgresStateStore(server!.url(schema));
    await store.read();
    await store.close();
    await sql(`UPDATE ${schema}.schema_version SET version = ${schemaVersion + 1}`);
    const newer = new PostgresStateStore(server!.url(schema));
    try {
      await expect(newer.read()).rejects.toThrow(
        `the schema is at version ${schemaVersion + 1}, made by a newer vigil; this one knows version ${schemaVersion}. Upgrade vigil.`,
      );
    } finally {
      await newer.close();
    }
  });

  it("works for a user who owns only its schema, and says which permission is missing otherwise", async () => {
    const schema = freshSchema();
    await sql(`CREATE ROLE ${schema} LOGIN PASSWORD 'pw-${schema}'`);
    await sql(`REVOKE CREATE ON DATABASE postgres FROM PUBLIC`);
    await sql(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    const as = (s: string) =>
      new PostgresStateStore(
        `postgres://${schema}:pw-${schema}@127.0.0.1:${server!.port}/postgres?schema=${s}`,
      );
    const refused = as(schema);
    try {
      const error = await refused.read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateBackendError);
      expect((error as Error).message).toContain("lacks a permission: see docs/state.md");
      expect((error as Error).message).toContain(`postgres://${schema}:***@127.0.0.1`);
      expect((error as Error).message).not.toContain(`pw-${schema}`);
    } finally {
      await refused.close();
    }
    await sql(`CREATE SCHEMA ${schema} AUTHORIZATION ${schema}`);
    const owner = as(schema);
    try {
      const lock = await owner.lock();
      await lock.write({ ...newState(), serial: 1 });
      await lock.release();
      expect((await owner.read())?.serial).toBe(1);
    } finally {
      await owner.close();
    }
  });

  it("reports an unreachable server with the password redacted", async () => {
    const store = new PostgresStateStore(`postgres://vigil:hunter22@127.0.0.1:1/postgres`);
    try {
      const error = await store.read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateBackendError);
      expect((error as Error).message).toMatch(
        /^PostgreSQL postgres:\/\/vigil:\*\*\*@127\.0\.0\.1:1\/postgres .*ECONNREFUSED/,
      );
      expect((error as Error).message).not.toContain("hunter22");
    } finally {
      await store.close();
    }
  });
});

describe("the CI run recorded with a lock", () => {
  it("is named from GitHub Actions, GitLab CI or a generic CI_* variable", () => {
    expect(
      ciRunUrl({
        GITHUB_RUN_ID: "7",
        GITHUB_REPOSITORY: "o/r",
        GITHUB_SERVER_URL: "https://ghe.example.com",
      }),
    ).toBe("https://ghe.example.com/o/r/actions/runs/7");
    expect(ciRunUrl({ CI_JOB_URL: "https://gitlab.example.com/g/p/-/jobs/9" })).toBe(
      "https://gitlab.example.com/g/p/-/jobs/9",
    );
    expect(ciRunUrl({ CI_BUILD_URL: "https://ci.example.com/b/3" })).toBe("https://ci.example.com/b/3");
    expect(ciRunUrl({})).toBeUndefined();
  });
});
