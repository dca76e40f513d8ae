import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { outcome } from "./helpers.ts";

/** A status page component bound to a monitor follows what simulated checks find, over HTTP only. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("status pages follow simulated checks", () => {
  it("a monitor component reads down and operational as the outcome route moves the monitor", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const page = await c.post("/statuspage", { slug: `it-${randomUUID().slice(0, 8)}`, title: "Status" });
    expect(page.status, page.text).toBe(201);
    const put = await c.put(`/statuspage/${page.body.id}/component`, {
      components: [
        { name: "API", monitorId: m },
        { name: "Docs", manualState: "degraded" },
      ],
    });
    expect(put.status, put.text).toBe(200);
    const states = async () =>
      (await c.get(`/statuspage/${page.body.id}`)).body.components.map((x: any) => `${x.name} ${x.state}`);

    await outcome(sb, m, "up");
    expect(await states()).toEqual(["API operational", "Docs degraded"]);
    await outcome(sb, m, "down");
    expect(await states()).toEqual(["API down", "Docs degraded"]);
    await sb.advance(300);
    await outcome(sb, m, "up");
    expect(await states()).toEqual(["API operational", "Docs degraded"]);

    // A window shown on status pages turns it to maintenance; its end turns it back.
    const now = await sb.advance(1);
    const w = await c.post("/maintenance", {
      name: "Shown",
      from: now,
      to: now + 600,
      monitorIds: [m],
      showOnStatusPage: true,
    });
    expect(w.status, w.text).toBe(201);
    expect(await states()).toEqual(["API maintenance", "Docs degraded"]);
    await sb.advance(600);
    expect(await states()).toEqual(["API operational", "Docs degraded"]);
  });
});
