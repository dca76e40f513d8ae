import { describe, expect, it } from "vitest";
import { isPostgresUrl, redactUrl } from "../../../src/engine/state/index.ts";
import { PostgresStateStore } from "../../../src/engine/state/postgres-store.ts";

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
