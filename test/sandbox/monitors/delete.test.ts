import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, httpMonitor, refusal } from "./fixtures.ts";

/** DELETE /monitor/{id}: the receipt, the cascade to subscriptions, and what remains. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

describe("delete", () => {
  it("answers 200 with a receipt; the monitor is gone afterwards", async () => {
    const body = await create(acct, httpMonitor({ name: "Doomed" }));
    const res = await acct.delete(`/monitor/${body.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      id: body.id,
      deleted: true,
      type: "http",
      name: "Doomed",
      url: body.url,
      cascaded: { alertSubscriptions: [], reportSubscriptions: [] },
    });
    expect(refusal(await acct.get(`/monitor/${body.id}`))).toEqual({ status: 404, code: "not_found" });
    expect(refusal(await acct.delete(`/monitor/${body.id}`))).toEqual({ status: 404, code: "not_found" });
    expect(refusal(await acct.patch(`/monitor/${body.id}`, { name: "x" }))).toEqual({
      status: 404,
      code: "not_found",
    });
  });

  it("a type without an address answers a receipt without url", async () => {
    const enterprise = await sb.account({ plan: "enterprise" });
    const body = await create(enterprise, { type: "snmp" });
    const res = await enterprise.delete(`/monitor/${body.id}`);
    expect(res.body).toEqual({
      id: body.id,
      deleted: true,
      type: "snmp",
      name: "SNMP (private probe)",
      cascaded: { alertSubscriptions: [], reportSubscriptions: [] },
    });
  });

  it("names the cascaded alert and report subscriptions, and keeps the contacts", async () => {
    const res = await acct.post(
      "/monitor",
      httpMonitor({
        contacts: [
          { ref: "ops", type: "email", address: "ops@example.com" },
          { ref: "hook", type: "http", address: "https://hooks.example.com/ops" },
        ],
        alertSubscriptions: [{ contactRefs: ["ops", "hook"], alertTypes: ["down", "up"] }],
        reportSubscriptions: [{ contactRefs: ["ops"], frequency: "weekly" }],
      }),
      { headers: { "Idempotency-Key": "delete-cascade" } },
    );
    expect(res.status, res.text).toBe(201);
    const { subscription } = (await acct.get(`/monitor/${res.body.id}?expand=subscription`)).body;
    expect(subscription.alert).toHaveLength(2);
    expect(subscription.report).toHaveLength(1);

    const receipt = await acct.delete(`/monitor/${res.body.id}`);
    expect(receipt.status).toBe(200);
    expect(receipt.body.cascaded.alertSubscriptions.sort()).toEqual(
      subscription.alert.map((s: { id: string }) => s.id).sort(),
    );
    expect(receipt.body.cascaded.reportSubscriptions).toEqual([subscription.report[0].id]);
    for (const id of receipt.body.cascaded.alertSubscriptions) {
      expect(id).toMatch(/^als_/);
      expect((await acct.get(`/alert/${id}`)).status).toBe(404);
    }
    expect(receipt.body.cascaded.reportSubscriptions[0]).toMatch(/^rsub_/);
    expect((await acct.get(`/report/${receipt.body.cascaded.reportSubscriptions[0]}`)).status).toBe(404);
    const contacts = (await acct.get("/contact")).body.data.map((c: { address: string }) => c.address);
    expect(contacts).toEqual(expect.arrayContaining(["ops@example.com", "https://hooks.example.com/ops"]));
  });

  it("frees the (url, type) pair for a new monitor", async () => {
    const body = await create(acct, httpMonitor());
    await acct.delete(`/monitor/${body.id}`);
    const again = await create(acct, httpMonitor({ url: body.url }));
    expect(again.id).not.toBe(body.id);
  });

  it("answers 404 for another account's monitor and leaves it in place", async () => {
    const body = await create(acct, httpMonitor());
    const other = await sb.account();
    expect(refusal(await other.delete(`/monitor/${body.id}`))).toEqual({ status: 404, code: "not_found" });
    expect((await acct.get(`/monitor/${body.id}`)).status).toBe(200);
  });
});
