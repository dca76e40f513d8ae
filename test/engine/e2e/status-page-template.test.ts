import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges, type DesiredResource, planChanges } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { appliedAccount, changed, writesSince } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

function page(name: string): DesiredResource {
  return {
    address: `statusPages.${name}`,
    kind: "statusPage",
    members: { slug: name, title: `Status of ${name}` },
  };
}

function template(pageName: string, name: string, members: Record<string, unknown>): DesiredResource {
  return {
    address: `statusPages.${pageName}.templates.${name}`,
    kind: "statusPageTemplate",
    members: { pageId: { $ref: `statusPages.${pageName}` }, ...members },
  };
}

/** Calls by route made between two metric snapshots, reads only. */
function readsSince(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .filter(([route]) => route.startsWith("GET "))
      .map(([route, n]) => [route, n - (before[route] ?? 0)] as const)
      .filter(([, d]) => d > 0),
  );
}

const down = { title: "Checkout down", message: "Payments fail; we are on it.", impact: "major" };
const slow = { title: "Checkout slow", message: "Payments are slow." };

describe("status page templates through the engine", () => {
  it("are created under their page, read back as configured, and plan nothing more", async () => {
    const desired = [
      page("shop-tpl"),
      template("shop-tpl", "down", down),
      template("shop-tpl", "slow", slow),
    ];
    const { client, ops, time, store, ids } = await appliedAccount(sb, desired);
    const pageId = ids["statusPages.shop-tpl"]!;
    const live = await ops.statusPageTemplate.list(pageId).all();
    expect(live.map((t) => [t.title, t.message, t.impact, t.pageId]).sort()).toEqual([
      ["Checkout down", down.message, "major", pageId],
      ["Checkout slow", slow.message, "minor", pageId],
    ]);
    expect(store.saved!.resources["statusPages.shop-tpl.templates.down"]).toMatchObject({
      kind: "statusPageTemplate",
      id: live.find((t) => t.title === down.title)!.id,
    });

    const before = client.metrics.snapshot().byRoute;
    const { plan } = await planChanges({ ops, store, desired, time });
    expect(changed(plan)).toEqual([]);
    // A refresh lists the pages once (their templates take the same list), then each page's templates.
    expect(readsSince(before, client.metrics.snapshot().byRoute)).toMatchObject({
      "GET /statuspage": 1,
      "GET /statuspage/{id}/template": 1,
    });
  });

  it("replaces a changed template (there is no PATCH): a new one is created and the old one deleted", async () => {
    const desired = [page("shop-rtpl"), template("shop-rtpl", "down", down)];
    const { client, ops, time, store, ids } = await appliedAccount(sb, desired);
    const changedText = [
      page("shop-rtpl"),
      template("shop-rtpl", "down", { ...down, message: "Fixed soon." }),
    ];

    const { plan } = await planChanges({ ops, store, desired: changedText, time });
    expect(changed(plan)).toMatchObject([
      {
        address: "statusPages.shop-rtpl.templates.down",
        action: "replace",
        reasons: ["message cannot change in place"],
      },
    ]);
    const before = client.metrics.snapshot().byRoute;
    const applied = await applyChanges({ ops, store, desired: changedText, time });
    expect(applied.result.failures).toEqual([]);
    expect(writesSince(before, client.metrics.snapshot().byRoute)).toEqual({
      "POST /statuspage/{id}/template": 1,
      "DELETE /statuspage/{id}/template/{templateId}": 1,
    });
    const live = await ops.statusPageTemplate.list(ids["statusPages.shop-rtpl"]!).all();
    expect(live.map((t) => t.message)).toEqual(["Fixed soon."]);
    expect(live[0]!.id).not.toBe(ids["statusPages.shop-rtpl.templates.down"]);
    expect(store.saved!.resources["statusPages.shop-rtpl.templates.down"]!.id).toBe(live[0]!.id);
    expect(changed((await planChanges({ ops, store, desired: changedText, time })).plan)).toEqual([]);
  });

  it("deletes a template on its own when only it leaves the config", async () => {
    const desired = [
      page("shop-dtpl"),
      template("shop-dtpl", "down", down),
      template("shop-dtpl", "slow", slow),
    ];
    const { client, ops, time, store, ids } = await appliedAccount(sb, desired);
    const smaller = desired.slice(0, 2);
    const before = client.metrics.snapshot().byRoute;
    const applied = await applyChanges({ ops, store, desired: smaller, time });
    expect(applied.result.failures).toEqual([]);
    expect(writesSince(before, client.metrics.snapshot().byRoute)).toEqual({
      "DELETE /statuspage/{id}/template/{templateId}": 1,
    });
    const live = await ops.statusPageTemplate.list(ids["statusPages.shop-dtpl"]!).all();
    expect(live.map((t) => t.title)).toEqual([down.title]);
  });

  it("lets the page's delete take its templates along: no call for them, the receipt names them", async () => {
    const desired = [
      page("shop-ctpl"),
      page("blog-ctpl"),
      template("shop-ctpl", "down", down),
      template("shop-ctpl", "slow", slow),
      template("blog-ctpl", "down", down),
    ];
    const { client, ops, time, store, ids } = await appliedAccount(sb, desired);
    const smaller = desired.filter((d) => !d.address.startsWith("statusPages.shop-ctpl"));

    const { plan } = await planChanges({ ops, store, desired: smaller, time });
    expect(changed(plan).map((a) => [a.address, a.action, a.cascadedBy])).toEqual([
      ["statusPages.shop-ctpl.templates.down", "delete", "statusPages.shop-ctpl"],
      ["statusPages.shop-ctpl.templates.slow", "delete", "statusPages.shop-ctpl"],
      ["statusPages.shop-ctpl", "delete", undefined],
    ]);
    const before = client.metrics.snapshot().byRoute;
    const applied = await applyChanges({ ops, store, desired: smaller, time });
    expect(applied.result.failures).toEqual([]);
    // The receipt's `cascaded.templates` named both templates: no mismatch to report.
    expect(applied.result.cascadeMismatches).toEqual([]);
    expect(writesSince(before, client.metrics.snapshot().byRoute)).toEqual({ "DELETE /statuspage/{id}": 1 });
    expect(Object.keys(store.saved!.resources).sort()).toEqual(smaller.map((d) => d.address).sort());
    const left = await ops.statusPageTemplate.list(ids["statusPages.blog-ctpl"]!).all();
    expect(left.map((t) => t.id)).toEqual([ids["statusPages.blog-ctpl.templates.down"]]);
    expect(changed((await planChanges({ ops, store, desired: smaller, time })).plan)).toEqual([]);
  });
});
