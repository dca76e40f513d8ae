import { rm } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Plan, parsePlan } from "../../../src/engine/index.ts";
import type { VigilRun } from "../vigil.ts";
import { type Project, project, shown, useSandbox } from "./helpers.ts";

/**
 * The three plan outputs for a realistic change: a create, an update with
 * field changes and a drift, a replace (type change) and a delete with its
 * cascade, spread over several files.
 */
const sandbox = useSandbox();

const contacts = (v2: boolean) => `contacts:
  oncall:     { type: http, address: https://hooks.example.com/pager }
  team-email: { type: email, address: team@example.com, name: Team }
${v2 ? "  ops-email:  { type: email, address: ops@example.com, name: Ops }\n" : ""}contactGroups:
  sre: { name: SRE, members: [{ contact: oncall, events: [down, up] }] }
`;

const monitors = (v2: boolean) => `monitors:
  checkout-api:
    type: http
    url: https://shop.example.com/health
    name: Checkout API
    interval: 60
    tags: [shop, ${v2 ? "prod, payments" : "prod"}]
    locations: { pools: [westeurope, northamerica] }
    settings: { method: G, timeout: ${v2 ? 20000 : 10000}, keywords: ok }
    alerts:  [{ contact: oncall, alertTypes: [down, up] }]
    reports: [{ contact: team-email, frequencies: [weekly] }]
  status-ping:
    type: ${v2 ? "api" : "http"}
    url: https://status.example.com/ping
    name: Status ping
    interval: 60
    locations: { pools: [westeurope] }
${v2 ? "    settings: { contentType: application/json }\n" : ""}${
  v2
    ? `  search:
    type: http
    url: https://search.example.com/health
    name: Search
    interval: 120
    locations: { pools: [allworld] }
`
    : `  old-shop:
    type: http
    url: https://old-shop.example.com/
    name: Old shop
    interval: 300
    locations: { pools: [northamerica] }
    alerts: [{ contact: oncall, alertTypes: [down] }]
`
}`;

const pages = (v2: boolean) => `maintenance:
  weekly-deploy: { name: Weekly deploy, from: 2026-12-01T02:00:00Z, to: 2026-12-01T0${v2 ? 4 : 3}:00:00Z, repeat: weekly, monitors: [checkout-api${v2 ? ", search" : ""}] }
statusPages:
  public: { slug: acme-status, title: Acme Status, components: [{ name: Checkout, monitor: checkout-api }, { name: Billing, manualState: operational }] }
webhooks:
  ops: { url: https://hooks.example.com/vigil, events: [monitor.down, monitor.up], scope: { monitors: [checkout-api] } }
`;

/** Ids, uuids and prefixed ids, each replaced by a stable name in order of appearance. */
function normaliseIds(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(
    /\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:als|rsub|acc)_[0-9a-zA-Z]+)\b/g,
    (id) => {
      let name = seen.get(id);
      if (!name) {
        name = `<id-${seen.size + 1}>`;
        seen.set(id, name);
      }
      return name;
    },
  );
}

/** The members of a plan that differ per run (a fresh account, state and clock each time). */
function normalisePlan(plan: Plan): Plan {
  return {
    ...plan,
    created: 0,
    lineage: "<lineage>",
    accountId: "<account>",
    configDigest: "<digest>",
    syncCursors: Object.fromEntries(Object.keys(plan.syncCursors).map((k) => [k, "<cursor>"])),
    actions: plan.actions.map((a) => ({
      ...a,
      ...(a.observed && {
        observed: {
          ...(a.observed.updated !== undefined && { updated: 0 }),
          ...(a.observed.digest !== undefined && { digest: "<digest>" }),
        },
      }),
    })),
  };
}

describe.concurrent("plan output", { timeout: 90_000 }, () => {
  let p: Project;
  let human: VigilRun;
  let json: VigilRun;
  let markdown: VigilRun;

  beforeAll(async () => {
    p = await project(sandbox(), {
      "contacts.yaml": contacts(false),
      "monitors/shop.yaml": monitors(false),
      "pages.yaml": pages(false),
    });
    const apply = await p.run(["apply", "--auto-approve"]);
    if (apply.code !== 0) throw new Error(shown(apply));
    // Out of band: someone renames the checkout monitor in the web app.
    const drift = await p.account.patch(`/monitor/${await p.idOf("monitors.checkout-api")}`, {
      name: "Checkout (renamed by hand)",
    });
    if (drift.status !== 200) throw new Error(drift.text);
    await p.write("contacts.yaml", contacts(true));
    await p.write("monitors/shop.yaml", monitors(true));
    await p.write("pages.yaml", pages(true));
    // One after the other: a plan holds the state lock while it reads.
    human = await p.run(["plan"]);
    json = await p.run(["plan", "--json"]);
    markdown = await p.run(["plan", "--markdown"]);
  }, 90_000);

  it("human", async () => {
    expect(human.code, shown(human)).toBe(0);
    expect(human.stderr).toBe("");
    await expect(normaliseIds(human.stdout)).toMatchFileSnapshot("__snapshots__/plan.txt");
  });

  it("JSON: the engine's plan, valid against its schema", async () => {
    expect(json.code, shown(json)).toBe(0);
    // stdout is the document; the deletions go to stderr, which a CI log shows.
    expect(json.stderr).toBe(
      "Warning: This plan deletes 2 objects from the account, and replaces 1 (it is deleted and created anew, under a new id). There is no undo.\n",
    );
    const plan = parsePlan(json.stdout, "stdout");
    expect(plan.summary).toMatchObject({ create: 2, update: 2, replace: 1, delete: 2, import: 0, forget: 0 });
    await expect(normaliseIds(`${JSON.stringify(normalisePlan(plan), null, 2)}\n`)).toMatchFileSnapshot(
      "__snapshots__/plan.json.txt", // .txt: biome would reformat a .json snapshot
    );
  });

  it("Markdown", async () => {
    expect(markdown.code, shown(markdown)).toBe(0);
    expect(markdown.stderr).toBe("");
    await expect(normaliseIds(markdown.stdout)).toMatchFileSnapshot("__snapshots__/plan.md");
  });

  it("the saved plan is the --json plan, and applies", async () => {
    const out = await p.run(["plan", "--out", "plan.json", "--json"]);
    expect(out.code, shown(out)).toBe(0);
    const saved = parsePlan(await p.read("plan.json"), "plan.json");
    expect(parsePlan(out.stdout)).toEqual(saved);
    expect(normalisePlan(saved).actions).toEqual(normalisePlan(parsePlan(json.stdout)).actions);
    const apply = await p.run(["apply", "--plan", "plan.json"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete:");
    await rm(join(p.dir, "plan.json"));
    const after = await p.run(["plan", "--detailed-exitcode"]);
    expect(after.code, shown(after)).toBe(0);
  });
});
