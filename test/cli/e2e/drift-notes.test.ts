import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePlan } from "../../../src/engine/index.ts";
import { project, shown, useSandbox } from "./helpers.ts";

/**
 * "vigil manages what you write; it reports the rest": a monitor paused by hand, when the YAML does not
 * set `enabled`, is a note in every plan output, never a change, and apply leaves it paused.
 */
const sandbox = useSandbox();

const config = `monitors:
  web:
    type: http
    url: https://web.example.com/health
    locations: { pools: [westeurope] }
  api:
    type: http
    url: https://api.example.com/health
    enabled: true
    locations: { pools: [westeurope] }
`;

const heading = "Changed outside vigil in members the configuration leaves unset (reported, not reverted):";

describe("drift notes", { timeout: 120_000 }, () => {
  it("a monitor paused by hand: a note in plan, --refresh-only, JSON and markdown; apply leaves it paused", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    const first = await p.run(["apply", "--auto-approve"]);
    expect(first.code, shown(first)).toBe(0);
    expect(first.stdout).not.toContain(heading);
    const web = await p.idOf("monitors.web");
    const api = await p.idOf("monitors.api");
    for (const id of [web, api])
      expect((await p.account.patch(`/monitor/${id}`, { enabled: false })).status).toBe(200);

    // `api` sets enabled: its pause is a change to revert. `web` leaves it unset: a note, nothing else.
    const plan = await p.run(["plan", "--detailed-exitcode", "--out", "plan.json"]);
    expect(plan.code, shown(plan)).toBe(2);
    expect(plan.stdout).toContain(
      `${heading}\n(values as the service stores them by default → as found in the account)\n\n  ! monitors.web  (main.yaml:2)\n      enabled: true → false\n`,
    );
    expect(plan.stdout).toContain("1 member changed outside vigil is left as found");
    expect(plan.stdout).toMatch(/~ monitors\.api[\s\S]*enabled: false → true/);
    expect(plan.stdout).not.toMatch(/~ monitors\.web/);

    const saved = parsePlan(await p.read("plan.json"));
    expect(saved.notes).toEqual([
      {
        type: "unmanaged_drift",
        address: "monitors.web",
        kind: "monitor",
        id: web,
        path: "/enabled",
        live: false,
        default: true,
      },
    ]);

    const json = await p.run(["plan", "--json"]);
    expect(JSON.parse(json.stdout).notes).toEqual(saved.notes);

    const markdown = await p.run(["plan", "--markdown"]);
    expect(markdown.stdout).toContain(
      `> [!NOTE]\n> **${heading}**\n>\n> - \`monitors.web\` \`enabled: true → false\``,
    );

    const refreshOnly = await p.run(["plan", "--refresh-only"]);
    expect(refreshOnly.code, shown(refreshOnly)).toBe(0);
    expect(refreshOnly.stdout).toContain(`  ! monitors.web  (main.yaml:2)\n      enabled: true → false`);

    // Apply reverts what the YAML says (api) and leaves the rest (web), saying so.
    const apply = await p.run(["apply", "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain(`  ! monitors.web  (main.yaml:2)\n      enabled: true → false`);
    expect(apply.stdout).toContain("Apply complete: 1 updated.");
    expect((await p.account.get(`/monitor/${web}`)).body.enabled).toBe(false);
    expect((await p.account.get(`/monitor/${api}`)).body.enabled).toBe(true);

    // Notes are not changes: with nothing else to do, --detailed-exitcode answers 0.
    const after = await p.run(["plan", "--detailed-exitcode"]);
    expect(after.code, shown(after)).toBe(0);
    expect(after.stdout).toContain("No changes.");
    expect(after.stdout).toContain("  ! monitors.web");
  });

  it("a member written in the YAML, or at its default, is no note", async () => {
    const p = await project(sandbox(), { "main.yaml": config });
    expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
    const plan = await p.run(["plan", "--out", join("plan.json")]);
    expect(plan.code, shown(plan)).toBe(0);
    expect(plan.stdout).not.toContain(heading);
    expect(parsePlan(await p.read("plan.json")).notes).toBeUndefined();
  });
});
