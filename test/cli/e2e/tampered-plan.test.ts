/**
 * Issue 25, point 3: a saved plan edited between `plan --out` and `apply --plan` is refused as tampered,
 * before any write and without reading a file outside the plan's repository.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../../src/engine/index.ts";
import { workspace } from "../vigil.ts";
import { type Project, project, shown, useSandbox } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

const sandbox = useSandbox();
const token = "tok-9f8e7d6c5b4a-never-shown";

/** Two teams in one repository, each in its own workspace of the same state backend. */
let p: Project;
let original: Plan;
let ids: { a: string; b: string };
let secretDir: string;

const stateOf = async (workspaceName: string) =>
  JSON.parse(await p.read(`.vigil/state.d/${workspaceName}.json`)) as {
    serial: number;
    resources: Record<string, { id: string }>;
  };

/** Applies `plan` (as edited) in team a's workspace. */
async function applyEdited(edit: (plan: Plan) => void) {
  const plan = structuredClone(original);
  edit(plan);
  await writeFile(join(p.dir, "edited.json"), JSON.stringify(plan, null, 2));
  return p.run(["apply", "--plan", "edited.json", "--workspace", "a"]);
}

/** One line, naming the plan as tampered; nothing of the account or the state changed. */
async function expectRefused(run: Awaited<ReturnType<typeof applyEdited>>, saying: RegExp) {
  expect(run.code, shown(run)).toBe(1);
  expect(run.stdout, shown(run)).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines, shown(run)).toHaveLength(1);
  expect(lines[0]).toMatch(/^Error: The saved plan was changed after vigil made it, so it is refused: /);
  expect(lines[0]).toMatch(saying);
  expect(lines[0]).toMatch(/Nothing was changed; make a new plan\.$/);
  // Team b's monitor is as b applied it, and team a's is still at its old interval under a's state.
  const b = await p.account.get(`/monitor/${ids.b}`);
  expect(b.status).toBe(200);
  expect(b.body.interval).toBe(60);
  expect((await p.account.get(`/monitor/${ids.a}`)).body.interval).toBe(60);
  const a = await stateOf("a");
  expect(a.serial).toBe(original.serial);
  expect(a.resources["monitors.a-0"]?.id).toBe(ids.a);
}

beforeAll(async () => {
  p = await project(sandbox(), {
    "team-a/main.yaml": monitorsYaml(1, "a"),
    "team-b/main.yaml": monitorsYaml(1, "b"),
  });
  for (const team of ["a", "b"]) {
    const applied = await p.run(["apply", `team-${team}`, "--workspace", team, "--auto-approve"]);
    expect(applied.code, shown(applied)).toBe(0);
  }
  ids = {
    a: (await stateOf("a")).resources["monitors.a-0"]!.id,
    b: (await stateOf("b")).resources["monitors.b-0"]!.id,
  };
  await p.write("team-a/main.yaml", monitorsYaml(1, "a").replace("interval: 60", "interval: 300"));
  const planned = await p.run(["plan", "team-a", "--workspace", "a", "--out", "plan.json"]);
  expect(planned.code, shown(planned)).toBe(0);
  original = JSON.parse(await p.read("plan.json"));
  expect(original.actions.map((a) => [a.address, a.action, a.id])).toEqual([
    ["monitors.a-0", "update", ids.a],
  ]);
  // A token file outside the repository, as a watcher's environment file would be.
  secretDir = await workspace({ "watch.env": `VIGIL_TOKEN=${token}\nOTHER=1\n` });
}, 120_000);

describe("apply --plan refuses a plan edited after it was made", { timeout: 60_000 }, () => {
  it("an added delete of another workspace's object", async () => {
    const run = await applyEdited((plan) => {
      plan.actions.push({
        address: "monitors.b-0",
        kind: "monitor",
        action: "delete",
        id: ids.b,
        reasons: ["not in the config"],
        changes: [],
        observed: { updated: 1 },
      });
      plan.summary.delete = 1;
    });
    await expectRefused(
      run,
      new RegExp(
        `monitors\\.b-0: the plan deletes ${ids.b}, but neither the configuration nor the state \\(serial ${original.serial}\\) has this address`,
      ),
    );
  });

  it("an added delete under an address of the state, with another workspace's id", async () => {
    const run = await applyEdited((plan) => {
      plan.actions = [{ ...plan.actions[0]!, action: "delete", id: ids.b, changes: [] }];
      plan.summary = { ...plan.summary, update: 0, delete: 1 };
    });
    await expectRefused(run, /monitors\.a-0: the plan deletes it, but the configuration declares it/);
  });

  it("an update whose id was changed to another workspace's object", async () => {
    const run = await applyEdited((plan) => {
      plan.actions[0]!.id = ids.b;
    });
    await expectRefused(
      run,
      new RegExp(
        `monitors\\.a-0: the plan updates ${ids.b}, but the state \\(serial ${original.serial}\\) holds ${ids.a}`,
      ),
    );
  });

  it("a summary that does not count the actions", async () => {
    const run = await applyEdited((plan) => {
      plan.summary = { ...plan.summary, update: 0, "no-op": 1 };
    });
    await expectRefused(run, /its summary counts 0 update, 1 no-op, its actions 1 update, 0 no-op/);
  });

  const outsidePaths: [string, (plan: Plan) => void, RegExp][] = [
    [
      "config.paths naming a file outside the repository, relatively",
      (plan) => {
        plan.config!.paths = [relative(p.dir, join(secretDir, "watch.env"))];
      },
      /config\.paths\[0\] "\.\.\/.*watch\.env" leads outside the repository the plan belongs to/,
    ],
    [
      "config.paths naming a file outside the repository, absolutely",
      (plan) => {
        plan.config!.paths = [join(secretDir, "watch.env")];
      },
      /config\.paths\[0\] ".*watch\.env" leads outside the repository/,
    ],
    [
      "config.dir moved outside the repository",
      (plan) => {
        plan.config!.dir = secretDir;
        plan.config!.paths = ["watch.env"];
      },
      /config\.dir ".*" leads outside the repository/,
    ],
    [
      "a config.files path outside the repository",
      (plan) => {
        plan.config!.files[0]!.path = "../../etc/passwd";
      },
      /config\.files\[0\]\.path "\.\.\/\.\.\/etc\/passwd" leads outside the repository/,
    ],
  ];
  for (const [what, edit, saying] of outsidePaths)
    it(`${what}: refused without reading it, the token never shown`, async () => {
      const run = await applyEdited(edit);
      expect(`${run.stdout}${run.stderr}`).not.toContain(token);
      expect(`${run.stdout}${run.stderr}`).not.toContain("OTHER=1");
      await expectRefused(run, saying);
      expect(run.stderr).toContain(`(${p.dir}: outside Git, the directory holding edited.json)`);
    });

  it("the plan as saved still applies, in its workspace", async () => {
    const run = await p.run(["apply", "--plan", "plan.json", "--workspace", "a"]);
    expect(run.code, shown(run)).toBe(0);
    expect(run.stdout).toContain("Apply complete: 1 updated.");
    expect((await p.account.get(`/monitor/${ids.a}`)).body.interval).toBe(300);
    expect((await p.account.get(`/monitor/${ids.b}`)).body.interval).toBe(60);
    expect(await readFile(join(p.dir, "plan.json"), "utf8")).toContain(ids.a);
  });
});
