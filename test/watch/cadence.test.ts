import { afterAll, beforeAll, expect, it } from "vitest";
import { formatDuration, planCadence, readBudget } from "../../src/watch/budget.ts";
import { vigil, workspace } from "../cli/vigil.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** The budget arithmetic of docs/watch.md, from each plan's real `GET /account/quota` answer. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb?.close());

const asked = { everyMs: 5 * 60_000, fullEveryMs: 60 * 60_000 };

it.each([
  // plan, reads/hour at 10 %, 600 resources (delta 2, full 5), 21,000 resources (delta 2, full 43)
  ["trial", 1.39, "1h37m12s", "19h26m24s", "3h54m1s", "46h48m1s"],
  ["business", 13.89, "9m44s", "1h56m39s", "23m24s", "4h40m48s"],
  ["enterprise", 138.89, "5m", "1h", "5m", "1h"],
] as const)(
  "%s: the budget and the fitted cadences",
  async (plan, perHour, every600, full600, every21k, full21k) => {
    const account = await sb.account({ plan, metered: true });
    const quota = (await account.get("/account/quota")).body;
    const budget = readBudget(quota, 0.1);
    expect(budget.tightest?.quota).toBe("read_per_month");
    expect(budget.perHour).toBeCloseTo(perHour, 1);

    const small = planCadence(asked, { delta: 2, full: 5 }, budget);
    expect(small.askedPerHour).toBe(27);
    expect([formatDuration(small.cadence.everyMs), formatDuration(small.cadence.fullEveryMs)]).toEqual([
      every600,
      full600,
    ]);
    expect(small.perHour).toBeLessThanOrEqual(budget.perHour + 0.01);
    const large = planCadence(asked, { delta: 2, full: 43 }, budget);
    expect(large.askedPerHour).toBe(65);
    expect([formatDuration(large.cadence.everyMs), formatDuration(large.cadence.fullEveryMs)]).toEqual([
      every21k,
      full21k,
    ]);
    expect(large.stretched).toBe(plan !== "enterprise");
  },
);

it("an unmetered account has no budget to stretch for", async () => {
  const account = await sb.account({ metered: false });
  const budget = readBudget((await account.get("/account/quota")).body, 0.1);
  expect(budget.perHour).toBe(Number.POSITIVE_INFINITY);
  expect(planCadence(asked, { delta: 4, full: 43 }, budget).stretched).toBe(false);
});

it.each([
  [["--every", "5 minutes"], "--every takes a duration: 90s, 5m or 1h30m (units d, h, m, s, ms)"],
  [["--full-every", "0s"], "--full-every must be longer than 0 (at least 1s)"],
  [["--listen", "9100"], "--listen takes HOST:PORT"],
  [
    ["--listen", "127.0.0.1:9100", "--webhook-secret-env", "NOT_SET"],
    "--webhook-secret-env names NOT_SET, which is not set",
  ],
  [["--webhook-secret-env", "HOME"], "--webhook-secret-env needs --listen"],
  [["--read-budget", "0"], "--read-budget takes a percentage above 0 and at most 100"],
  [
    ["--listen", "127.0.0.1:9100", "--max-connections", "0"],
    '--max-connections takes a whole number of connections, at least 1, not "0".',
  ],
  [["--max-connections", "64"], "--max-connections needs --listen."],
  [["--heal-deletes"], "--heal-deletes needs --heal"],
  [["--notify", "slack"], "--notify takes an http(s) URL"],
])("vigil watch %j is refused before anything is read", async (args, message) => {
  const dir = await workspace({ "monitoring.yaml": "monitors: {}\n" });
  // An endpoint nothing listens on: a flag checked too late would fail on the connection instead.
  const run = await vigil(["watch", ...args], {
    cwd: dir,
    env: { VIGIL_ENDPOINT: "http://127.0.0.1:9", VIGIL_TOKEN: "t" },
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(message);
  expect(run.stdout).toBe("");
});

it("--notify-format slack sends one line per member, credentials as the watcher shows them", async () => {
  const { transitionText } = await import("../../src/watch/notify.ts");
  const text = transitionText({
    time: "2026-01-01T00:00:00.000Z",
    transition: "drifted",
    address: "monitors.web",
    kind: "monitor",
    id: "m1",
    seenBy: "event",
    members: [
      { member: "settings.timeout", before: 10000, after: 20000 },
      { member: "settings.password", before: "(sensitive)", after: "(sensitive, differs)", sensitive: true },
    ],
  });
  expect(text.split("\n")).toEqual([
    "🔀 monitors.web (monitor) drifted (seen by event)",
    "• settings.timeout: 10000 → 20000",
    '• settings.password: "(sensitive)" → "(sensitive, differs)"',
  ]);
});
