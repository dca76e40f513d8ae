import { describe, expect, it } from "vitest";
import { project, shown, useSandbox } from "./helpers.ts";

/**
 * A refusal at apply, said once and in the user's own terms: the member at file:line:column with every
 * member of the problem, never the bulk job's `/items/N/…` body pointers.
 */
const sandbox = useSandbox();

/** `count` monitors, the one at `blocked` on a host the sandbox's block list refuses (403 url_blacklisted). */
function monitors(count: number, blocked: number): string {
  const lines = ["monitors:"];
  for (let i = 0; i < count; i++) {
    lines.push(`  m${i}:`, "    type: http");
    lines.push(`    url: https://${i === blocked ? "bad.blocked.test" : `m${i}.example.com`}/health`);
    lines.push("    locations: { pools: [allworld] }");
  }
  return `${lines.join("\n")}\n`;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe.concurrent("apply refusals", { timeout: 90_000 }, () => {
  it.each([
    ["a bulk job's item", 4],
    ["a single call", 1],
  ])("%s: at the member's file:line:column, once, with every member said", async (_, n) => {
    const blocked = n - 1;
    const p = await project(sandbox(), { "main.yaml": monitors(n, blocked) });
    const run = await p.run(["apply", "--auto-approve"]);
    expect(run.code, shown(run)).toBe(1);
    const urlLine = 2 + blocked * 4 + 2;
    expect(run.stderr).toContain(
      `Error: monitors.m${blocked}: create failed: ${n > 1 ? "monitor bulk create" : "POST /monitor"}: 403 url_blacklisted: bad.blocked.test is on the service's block list.`,
    );
    expect(run.stderr).toContain(
      `\n  main.yaml:${urlLine}:10: monitors.m${blocked} url: got "https://bad.blocked.test/health"\n`,
    );
    const all = run.stdout + run.stderr;
    expect(all).not.toMatch(/\/items\//);
    // The progress line says it failed; the refusal itself is said once.
    expect(count(all, "url_blacklisted"), shown(run)).toBe(1);
    expect(run.stdout).toContain(`monitors.m${blocked}: create failed (see the error below)`);
    expect(run.stdout).toContain(
      `Apply finished with 1 failure(s): ${n - 1 > 0 ? `${n - 1} created` : "nothing applied"}.`,
    );
  });
});

describe("times in ISO 8601", { timeout: 90_000 }, () => {
  it("state show and a stale plan's reason show times as the YAML writes them, not Unix seconds", async () => {
    const p = await project(sandbox(), {
      "main.yaml": `monitors:
  web: { type: http, url: "https://web.example.com/", locations: { pools: [allworld] } }
maintenance:
  deploy: { name: Deploy, from: 2026-12-01T02:00:00Z, to: 2026-12-01T03:00:00Z, monitors: [web] }
`,
    });
    expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
    const show = await p.run(["state", "show", "maintenance.deploy"]);
    expect(show.code, shown(show)).toBe(0);
    expect(show.stdout).toContain("\n  from: 2026-12-01T02:00:00Z\n");
    expect(show.stdout).toContain("\n  to: 2026-12-01T03:00:00Z\n");

    await p.write(
      "main.yaml",
      (await p.read("main.yaml")).replace(
        'url: "https://web.example.com/"',
        'url: "https://web.example.com/", name: Web',
      ),
    );
    expect((await p.run(["plan", "--out", "plan.json"])).code).toBe(0);
    expect((await p.account.patch(`/monitor/${await p.idOf("monitors.web")}`, { tags: ["x"] })).status).toBe(
      200,
    );
    const stale = await p.run(["apply", "--plan", "plan.json"]);
    expect(stale.code, shown(stale)).toBe(1);
    expect(stale.stderr).toMatch(
      /monitors\.web: \S+ was changed \(updated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/,
    );
  });
});
