import { mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchRecordPath } from "../../src/cli/commands/watch.ts";
import { project } from "../cli/e2e/helpers.ts";
import { freshSchema, postgresForTests } from "../helpers/postgres.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { freePort, runWatch, stop, waitHealthy } from "./helpers.ts";

/**
 * Where watchers of PostgreSQL states keep their records: in the workspace's schema (the watch lease's
 * row), where every replica finds it; a file an earlier vigil kept under .vigil/ is read while it has none.
 */
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

/** The record a PostgreSQL state's watcher keeps in its schema's lease row, or undefined. */
async function recordIn(schema: string): Promise<Record<string, any> | undefined> {
  const client = new pg.Client({ connectionString: server!.url() });
  await client.connect();
  try {
    const result = await client.query(`SELECT document FROM "${schema}".leases WHERE name = 'watch'`);
    return result.rows[0]?.document ?? undefined;
  } finally {
    await client.end();
  }
}

describe.skipIf(!server)("a PostgreSQL-backed watcher's record", () => {
  it("lives in the workspace's schema: two schemas keep two records, and the directory none", {
    timeout: 120_000,
  }, async () => {
    const p = await project(sb, {
      "a/monitoring.yaml": monitorConfig("a"),
      "b/monitoring.yaml": monitorConfig("b"),
    });
    const schemas = { a: freshSchema(), b: freshSchema() };
    for (const [dir, schema] of Object.entries(schemas)) {
      const state = server!.url(schema);
      expect((await p.run(["apply", dir, "--state", state, "--auto-approve"])).code).toBe(0);
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

    const lineages = await Promise.all(Object.values(schemas).map(async (s) => (await recordIn(s))?.lineage));
    expect(lineages.every((l) => typeof l === "string")).toBe(true);
    expect(new Set(lineages).size).toBe(2);
    const files = await readdir(join(p.dir, ".vigil")).catch(() => []);
    expect(files.filter((f) => f.endsWith(".watch.json"))).toEqual([]);
  });

  it("an upgraded watcher takes the record an earlier vigil kept in .vigil/: nothing is reported again", {
    timeout: 120_000,
  }, async () => {
    const p = await project(sb, { "monitoring.yaml": monitorConfig("web") });
    const schema = freshSchema();
    const state = server!.url(schema);
    expect((await p.run(["apply", "--state", state, "--auto-approve"])).code).toBe(0);
    const [monitor] = (await p.account.get("/monitor")).body.data as { id: string }[];
    await p.account.patch(`/monitor/${monitor!.id}`, { name: "Renamed by hand" });
    const env = { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: p.account.token };

    const first = runWatch(["--state", state], p.dir, env);
    await first.waitFor((t) => t.address === "monitors.web" && t.transition === "drifted", 60_000);
    await stop(first);
    // What an earlier vigil left: the record in a file under .vigil/, none in the database.
    // The path is the working directory's: the watcher's is the project's.
    const path = join(p.dir, relative(process.cwd(), watchRecordPath({ state }).path));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(await recordIn(schema)));
    await forget(schema);

    const second = runWatch(["--state", state], p.dir, env);
    await second.waitForStderr("Ready (GET /healthz answers 200)", 60_000);
    await stop(second);
    expect(second.stderr()).toContain("Resumed");
    expect(second.lines()).toEqual([]);
    expect((await recordIn(schema))?.reported.map((r: { address: string }) => r.address)).toEqual([
      "monitors.web",
    ]);
  });
});

/** Empties the lease row's record, as a schema written by an earlier vigil has none. */
async function forget(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: server!.url() });
  await client.connect();
  try {
    await client.query(`UPDATE "${schema}".leases SET document = NULL`);
  } finally {
    await client.end();
  }
}

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
