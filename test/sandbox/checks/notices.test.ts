import { afterAll, beforeAll, expect, it } from "vitest";
import { contact, monitor } from "../../helpers/fixtures.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/**
 * The spec: a plain http contact (no recognised gateway) receives no certificate, domain, blocklist or web-risk
 * notices, while ordinary down, up and repeatedly-down alerts reach it. The alerts of a `sslExp` monitor are
 * such notices.
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const outcome = async (id: string, state: "up" | "down") => {
  const res = await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state });
  expect(res.status, res.text).toBe(200);
};

async function subscribe(c: Client, monitorId: string, contactId: string) {
  const res = await c.put(`/monitor/${monitorId}/alert/${contactId}`, { alertTypes: ["down", "up"] });
  expect(res.status, res.text).toBeLessThan(300);
}

it("blocks a certificate monitor's alerts to a plain http contact, with reason no_gateway", async () => {
  const c = await sb.account();
  const plain = await contact(c, { type: "http", address: "https://hooks.example.com/plain" });
  const slack = await contact(c, { type: "http", address: "https://hooks.slack.com/services/T0/B0/x" });
  const certificate = await c.post("/monitor", { type: "sslExp", url: "shop.example.com" });
  expect(certificate.status, certificate.text).toBe(201);
  const web = await monitor(c);
  for (const m of [certificate.body.id, web]) {
    await subscribe(c, m, plain);
    await subscribe(c, m, slack);
    await outcome(m, "down");
    // Notifications of one second tie in the log's order: a minute apart, they read in order.
    await sb.advance(60);
    await outcome(m, "up");
    await sb.advance(60);
  }
  const rows = (await c.get("/contact/notification?sort=time:asc&limit=50")).body.data as any[];
  const seen = rows.map((n) => ({
    monitor: n.monitorIds[0] === web ? "web" : "certificate",
    contact: n.contactId === plain ? "plain" : "slack",
    event: n.event,
    outcome: n.outcome,
    reason: n.reason,
  }));
  const of = (monitor: string, who: string) => seen.filter((n) => n.monitor === monitor && n.contact === who);
  expect(of("certificate", "plain")).toEqual([
    { monitor: "certificate", contact: "plain", event: "down", outcome: "blocked", reason: "no_gateway" },
    { monitor: "certificate", contact: "plain", event: "up", outcome: "blocked", reason: "no_gateway" },
  ]);
  expect(of("certificate", "slack").map((n) => n.outcome)).toEqual(["sent", "sent"]);
  expect(of("web", "plain").map((n) => n.outcome)).toEqual(["sent", "sent"]);
  // Nothing went out to the plain contact about the certificate.
  const messages = (await sb.outbox()).filter((m) => m.contactId === plain);
  expect(messages.map((m) => m.monitorIds[0])).toEqual([web, web]);
});
