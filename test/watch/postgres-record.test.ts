import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchRecordPath } from "../../src/cli/commands/watch.ts";
import { project } from "../cli/e2e/helpers.ts";
import { freshSchema, postgresForTests } from "../helpers/postgres.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { freePort, runWatch, stop, waitHealthy } from "./helpers.ts";

/** Where watchers of PostgreSQL states keep their records: one file per database, schema and workspace. */
const server = await postgresForTests();
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb?.close();
  await server?.stop();
});

const monitorConfig = (name: string) => `
monitors:
  ${name}:
    type: http
    url: https://${name}.example.com/health
    name: ${name}
    interval: 60
    locations: { pools: [allworld] }
`;

describe.skipIf(!server)("a PostgreSQL-backed watcher's record", () => {
  it("two watchers of two schemas in one directory keep two records", { timeout: 120_000 }, async () => {
    const p = await project(sb, {
      "a/monitoring.yaml": monitorConfig("a"),
      "b/monitoring.yaml": monitorConfig("b"),
    });
    const states = { a: server!.url(freshSchema()), b: server!.url(freshSchema()) };
    for (const [dir, state] of Object.entries(states))
      expect((await p.run(["apply", dir, "--state", state, "--auto-approve"])).code).toBe(0);

    for (const [dir, state] of Object.entries(states)) {
      const port = await freePort();
      const w = runWatch([dir, "--state", state, "--listen", `127.0.0.1:${port}`], p.dir, {
        VIGIL_ENDPOINT: sb.url,
        VIGIL_TOKEN: p.account.token,
      });
      try {
        await waitHealthy(`http://127.0.0.1:${port}`).catch((e) => {
          throw new Error(`${e.message}: ${w.stderr()}`);
        });
      } finally {
        await stop(w);
      }
    }

    const records = (await readdir(join(p.dir, ".vigil"))).filter((f) => f.endsWith(".watch.json"));
    expect(records).toHaveLength(2);
    const lineages = await Promise.all(
      records.map(async (f) => JSON.parse(await readFile(join(p.dir, ".vigil", f), "utf8")).lineage),
    );
    expect(new Set(lineages).size).toBe(2);
    for (const f of records) expect(f).not.toContain(server!.password);
  });
});

describe("the record's name", () => {
  const url = (password: string, rest: string) => `postgres://vigil:${password}@db.example.com:5432/${rest}`;
  const at = (state: string, workspace?: string) =>
    watchRecordPath({ state, ...(workspace && { workspace }) }).path;

  it("differs per database, schema and workspace, never for the user or password, and never holds the password", () => {
    const base = at(url("s3cret", "monitoring?schema=team1"));
    expect(
      new Set([
        base,
        at(url("s3cret", "other?schema=team1")),
        at(url("s3cret", "monitoring?schema=team2")),
        at(url("s3cret", "monitoring?schema=team1"), "staging"),
        at("postgres://vigil:s3cret@db2.example.com:5432/monitoring?schema=team1"),
      ]).size,
    ).toBe(5);
    expect(at(url("another", "monitoring?schema=team1"))).toBe(base);
    expect(at("postgres://someone:x@db.example.com/monitoring?schema=team1&sslmode=require")).toBe(base);
    // A password written without percent-encoding names the same state, and stays out of the name.
    const raw = at(url("p/a?s#s@w", "monitoring?schema=team1"));
    expect(raw).toBe(base);
    for (const path of [base, raw])
      expect(path).toMatch(/\.vigil\/postgres-state\.[0-9a-f]{16}\.watch\.json$/);
  });

  it("stays beside a state file", () => {
    expect(at("states/prod.json")).toMatch(/states\/prod\.json\.watch\.json$/);
    expect(watchRecordPath({ state: url("x", "m") }).former).toMatch(
      /\.vigil\/postgres-state\.json\.watch\.json$/,
    );
  });
});
