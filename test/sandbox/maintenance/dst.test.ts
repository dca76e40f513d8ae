import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact, monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/**
 * A weekly window in the week of a daylight-saving change: it keeps its wall-clock hour in the account's
 * time zone, so the sandbox holds alerts back at the local hour, not 7 × 24 hours after the week before.
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const t = (iso: string) => Date.parse(iso) / 1000;

describe("a weekly window across a daylight-saving change, in the account's time zone", () => {
  it("Berlin springs forward: Sunday 09:00-10:00 local is 07:00Z-08:00Z, and alerts are held then, not after", async () => {
    const c = await sb.account();
    expect((await c.patch("/account", { timezone: "Europe/Berlin" })).status).toBe(200);
    const heldMonitor = await monitor(c);
    const laterMonitor = await monitor(c);
    const hook = await contact(c, { type: "http", address: "https://hooks.example.com/dst" });
    for (const m of [heldMonitor, laterMonitor])
      expect((await c.put(`/monitor/${m}/alert/${hook}`, { alertTypes: ["down"] })).status).toBe(201);
    await sb.setClock(t("2027-03-20T12:00:00Z"));
    // Sunday 2027-03-21 09:00-10:00 CET (UTC+1), every week.
    const created = await c.post("/maintenance", {
      name: "Sunday deploy",
      from: t("2027-03-21T08:00:00Z"),
      to: t("2027-03-21T09:00:00Z"),
      repeat: "weekly",
      monitorIds: [heldMonitor, laterMonitor],
    });
    expect(created.status).toBe(201);
    const downAlerts = async (m: string) =>
      (await c.get(`/contact/notification?contact=${hook}&sort=time:asc`)).body.data.filter(
        (n: { monitorIds: string[]; event: string }) => n.monitorIds.includes(m) && n.event === "down",
      );

    // 2027-03-28 is in CEST (UTC+2): 09:10 local is 07:10Z, inside the window.
    await sb.setClock(t("2027-03-28T07:10:00Z"));
    expect((await c.get(`/maintenance/${created.body.id}`)).body).toMatchObject({
      state: "active",
      occurrence: { from: t("2027-03-28T07:00:00Z"), to: t("2027-03-28T08:00:00Z") },
    });
    expect((await sb.admin.post(`/_sandbox/monitor/${heldMonitor}/outcome`, { state: "down" })).status).toBe(
      200,
    );
    await sb.setClock(t("2027-03-28T07:59:00Z"));
    expect(await downAlerts(heldMonitor)).toEqual([]);
    // The local 10:00 ends it: the held alert goes out then.
    await sb.setClock(t("2027-03-28T08:00:30Z"));
    const [released] = await downAlerts(heldMonitor);
    expect(released).toMatchObject({ outcome: "sent" });
    expect(released.time).toBeGreaterThanOrEqual(t("2027-03-28T08:00:00Z"));

    // 08:10Z is 10:10 local: outside the window, though 7 × 24 hours after 2027-03-21 08:00Z would hold it.
    await sb.setClock(t("2027-03-28T08:10:00Z"));
    expect((await c.get(`/maintenance/${created.body.id}`)).body.state).toBe("scheduled");
    expect((await sb.admin.post(`/_sandbox/monitor/${laterMonitor}/outcome`, { state: "down" })).status).toBe(
      200,
    );
    await sb.setClock(t("2027-03-28T08:11:00Z"));
    const [atOnce] = await downAlerts(laterMonitor);
    expect(atOnce).toMatchObject({ outcome: "sent" });
    expect(atOnce.time).toBeLessThan(t("2027-03-28T08:11:00Z"));
  });

  it("New York falls back: Sunday 09:00-10:00 local is 14:00Z-15:00Z, and the list's range follows it", async () => {
    const c = await sb.account();
    expect((await c.patch("/account", { timezone: "America/New_York" })).status).toBe(200);
    const m = await monitor(c);
    await sb.setClock(t("2027-10-30T12:00:00Z"));
    // Sunday 2027-10-31 09:00-10:00 EDT (UTC-4); 2027-11-07 is in EST (UTC-5).
    const w = (
      await c.post("/maintenance", {
        name: "Sunday deploy",
        from: t("2027-10-31T13:00:00Z"),
        to: t("2027-10-31T14:00:00Z"),
        repeat: "weekly",
        monitorIds: [m],
      })
    ).body;
    await sb.setClock(t("2027-11-07T13:30:00Z"));
    expect((await c.get(`/monitor/${m}`)).body.state).not.toBe("maintenance");
    expect((await c.get(`/maintenance/${w.id}`)).body).toMatchObject({
      state: "scheduled",
      occurrence: { from: t("2027-11-07T14:00:00Z"), to: t("2027-11-07T15:00:00Z") },
    });
    const listed = (from: string, to: string) =>
      c
        .get(`/maintenance?from=${t(from)}&to=${t(to)}`)
        .then((r) => r.body.data.map((x: { id: string }) => x.id));
    expect(await listed("2027-11-07T13:00:00Z", "2027-11-07T14:00:00Z")).toEqual([]);
    expect(await listed("2027-11-07T14:30:00Z", "2027-11-07T14:40:00Z")).toEqual([w.id]);
    await sb.setClock(t("2027-11-07T14:30:00Z"));
    expect((await c.get(`/monitor/${m}`)).body.state).toBe("maintenance");
  });
});
