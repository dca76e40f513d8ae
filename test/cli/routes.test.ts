import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it, vi } from "vitest";
import { vigil, workspace } from "./vigil.ts";

/**
 * `vigil routes`: the routing matrix of a configuration, offline, and the diff against a base checkout. Each
 * case runs the real binary, which takes seconds on a busy machine.
 */
vi.setConfig({ testTimeout: 90_000 });
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const contacts = (opsDelay = 10) => `
contacts:
  pager: { type: http, address: "https://hooks.example.com/pager" }
  phone: { type: sms, address: "+15555550123", alertDelay: 5 }
  ops: { type: email, address: ops@example.com, alertDelay: ${opsDelay} }
`;
const monitor = (name: string, alerts: string) => `
  ${name}:
    type: http
    url: https://${name}.example.com/
    locations: { pools: [allworld] }
    tags: [prod]${alerts ? `\n    alerts:\n${alerts}` : ""}`;
const alert = (contact: string, types: string) => `      - { contact: ${contact}, alertTypes: [${types}] }\n`;

const main = {
  "contacts.yaml": contacts(),
  "monitors.yaml": `monitors:${monitor("api", alert("pager", "down, up") + alert("phone", "down"))}${monitor("web", alert("ops", "down"))}${monitor("docs", alert("phone", "down"))}
maintenance:
  deploy:
    name: Weekly deploy
    from: 2030-01-06T02:00:00Z
    to: 2030-01-06T03:00:00Z
    repeat: weekly
    monitors: [api]
webhooks:
  bot:
    url: https://hooks.example.com/bot
    events: [monitor.down, monitor.up]
    scope: { monitors: [api] }
`,
};

async function checkout(files: Record<string, string>) {
  const dir = await workspace(files);
  dirs.push(dir);
  return dir;
}
const routes = (cwd: string, ...args: string[]) => vigil(["routes", ...args], { cwd });

describe("the matrix", () => {
  it("lists each monitor's recipients, channels, delays, windows and who pages nobody", async () => {
    const dir = await checkout(main);
    const run = await routes(dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("api (http)\n");
    expect(run.stdout).toMatch(/✓ pager +http +down, up at once\n/);
    expect(run.stdout).toMatch(/✓ phone +sms +down after 5 min\n/);
    expect(run.stdout).toMatch(/✓ bot \(webhook\) +webhook +down, up at once\n/);
    expect(run.stdout).toContain(
      "held during deploy (Weekly deploy): weekly, Sun 02:00 to Sun 03:00 UTC, from 2030-01-06",
    );
    expect(run.stdout).toContain("3 monitors, 5 routes; every contact taken as confirmed");
    expect(run.stdout).not.toContain("page nobody");
  });

  it("--confirmed names the confirmed contacts: the others' alerts are blocked, and a monitor may page nobody", async () => {
    const dir = await checkout(main);
    const run = await routes(dir, "--confirmed", "ops", "--json");
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.confirmed).toEqual(["ops"]);
    for (const r of out.routes)
      expect(Object.keys(r)).toEqual(
        expect.arrayContaining(["monitor", "contact", "channel", "alertTypes", "delayMinutes", "confirmed"]),
      );
    const phone = out.routes.filter((r: any) => r.contact === "phone");
    expect(phone.map((r: any) => [r.monitor, r.confirmed, r.outcome, r.reason])).toEqual([
      ["api", false, "blocked", "unconfirmed"],
      ["docs", false, "blocked", "unconfirmed"],
    ]);
    expect(out.monitors.map((m: any) => [m.monitor, m.pagesOnDown])).toEqual([
      ["api", true],
      ["web", true],
      ["docs", false],
    ]);
    expect(out.monitors[0].heldBy).toEqual([
      {
        maintenance: "deploy",
        title: "Weekly deploy",
        from: "2030-01-06T02:00:00Z",
        to: "2030-01-06T03:00:00Z",
        repeat: "weekly",
      },
    ]);
    const human = await routes(dir, "--confirmed=ops,pager");
    expect(human.stdout).toMatch(
      /✗ phone +sms +down after 5 min; unconfirmed; blocked: the contact is not confirmed/,
    );
    expect(human.stdout).toContain("⚠ 1 enabled monitor pages nobody on down: docs");
  });

  it("--markdown is a table of every route", async () => {
    const run = await routes(await checkout(main), "--markdown");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("### vigil routes: 3 monitors, 5 routes");
    expect(run.stdout).toContain("| monitor | reaches | channel | what |");
    expect(run.stdout).toContain("| api | phone | sms | down after 5 min |");
  });
});

describe("--base: who gets paged, before and after", () => {
  const changed = {
    "contacts.yaml": contacts(15),
    // phone leaves api; docs loses its only subscription; pager joins web.
    "monitors.yaml": main["monitors.yaml"]
      .replace(alert("pager", "down, up") + alert("phone", "down"), alert("pager", "down, up"))
      .replace(monitor("docs", alert("phone", "down")), monitor("docs", ""))
      .replace(
        monitor("web", alert("ops", "down")),
        monitor("web", alert("ops", "down") + alert("pager", "down")),
      ),
  };

  it("--json lists routes added, removed and changed, with before and after; --detailed-exitcode says 2", async () => {
    const base = await checkout(main);
    const head = await checkout(changed);
    const run = await routes(head, "--base", base, "--json", "--detailed-exitcode");
    expect(run.code, run.stderr).toBe(2);
    const diff = JSON.parse(run.stdout);
    const who = (r: any) => `${r.monitor} ${r.contact ?? r.webhook}`;
    expect(diff.added.map(who)).toEqual(["web pager"]);
    expect(diff.removed.map(who)).toEqual(["api phone", "docs phone"]);
    expect(diff.changed).toEqual([
      expect.objectContaining({
        monitor: "web",
        contact: "ops",
        members: ["delayMinutes"],
        before: expect.objectContaining({ delayMinutes: 10 }),
        after: expect.objectContaining({ delayMinutes: 15 }),
      }),
    ]);
    expect(diff.unpaged).toEqual(["docs"]);
  });

  it("the human and Markdown diffs say the same, and warn of a monitor that pages nobody now", async () => {
    const base = await checkout(main);
    const head = await checkout(changed);
    const [human, markdown] = await Promise.all([
      routes(head, "--base", base),
      routes(head, "--base", base, "--markdown"),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.split("\n")).toEqual([
      "+ web → pager (http): down at once",
      "- api → phone (sms): down after 5 min",
      "- docs → phone (sms): down after 5 min",
      "~ web → ops: delayMinutes: 10 → 15",
      "Routes: 1 added, 1 changed, 2 removed.",
      "⚠ 1 monitor paged someone on down and pages nobody now: docs",
      "",
    ]);
    expect(markdown.stdout).toContain("### vigil routes: who gets paged changes");
    expect(markdown.stdout).toContain("> ⚠ 1 monitor paged someone on down and pages nobody now: docs");
    expect(markdown.stdout).toContain("| web | ops | delayMinutes: 10 | delayMinutes: 15 |");
  });

  it("no change: says so, and --detailed-exitcode exits 0", async () => {
    const base = await checkout(main);
    const head = await checkout(main);
    const run = await routes(head, "--base", base, "--detailed-exitcode", "--markdown");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("### vigil routes: no change to who gets paged\n");
  });

  it("reads the same relative paths under the base, and counts a base without them as empty", async () => {
    const base = await checkout(Object.fromEntries(Object.entries(main).map(([n, t]) => [`shop/${n}`, t])));
    const head = await checkout(
      Object.fromEntries(Object.entries(changed).map(([n, t]) => [`shop/${n}`, t])),
    );
    const empty = await checkout({});
    const [same, fresh] = await Promise.all([
      routes(head, "shop", "--base", base, "--json"),
      routes(head, "shop", "--base", empty, "--json"),
    ]);
    expect(JSON.parse(same.stdout).added.length).toBe(1);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toContain("the base has no");
    expect(JSON.parse(fresh.stdout).added.length).toBe(4);
  });
});

describe("mistakes", () => {
  it("a bad configuration gets the errors validate gives, exit 1", async () => {
    const dir = await checkout({
      "monitors.yaml": `monitors:${monitor("api", alert("pagr", "down"))}\n`,
      ...{ "contacts.yaml": contacts() },
    });
    const [validate, run] = await Promise.all([vigil(["validate"], { cwd: dir }), routes(dir)]);
    expect(run.code).toBe(1);
    expect(validate.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(validate.stderr);
    expect(run.stderr).toMatch(
      /monitors\.yaml:\d+:\d+: .*contacts\.pagr is not declared.*did you mean "pager"/,
    );
  });

  it("a bad base, options that do not go together, an unknown --confirmed name", async () => {
    const dir = await checkout(main);
    const brokenBase = await checkout({ "monitors.yaml": "monitors: [" });
    const cases: [string[], RegExp][] = [
      [["--base", brokenBase], /^Error: .*monitors\.yaml:1:\d+: [\s\S]*The base \(--base\): 1 problem/],
      [["--base", `${dir}/nope`], /--base .*nope: no such directory/],
      [["--detailed-exitcode"], /--detailed-exitcode needs --base/],
      [["--json", "--markdown"], /--json and --markdown cannot be used together/],
      [["--confirmed", "opps"], /--confirmed: "opps" is not a contact .*did you mean "ops"/],
      [[dir, "--base", brokenBase], /the paths must be relative/],
    ];
    const runs = await Promise.all(cases.map(([args]) => routes(dir, ...args)));
    for (const [i, [args, message]] of cases.entries()) {
      const run = runs[i]!;
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr, args.join(" ")).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
