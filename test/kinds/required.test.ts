import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../../src/kinds/index.ts";
import { contact, monitor } from "../helpers/fixtures.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * The kinds' `required` lists are what configs are checked against before
 * anything is sent; the sandbox's create routes must agree with them.
 */
let sb: TestSandbox;
let c: Client;
let monitorId: string;
let contactId: string;
let pageId: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  c = await sb.account();
  monitorId = await monitor(c);
  contactId = await contact(c, { type: "email", address: "required@example.com" });
  pageId = (await c.post("/statuspage", { slug: "required-page", title: "Required" })).body.id;
});
afterAll(() => sb.close());

/** A valid create body and its route, per kind; a subscription's pair and a template's page are in its route. */
function creates({ name }: (typeof kinds)[number]): {
  method?: "PUT";
  route: string;
  body: Record<string, unknown>;
  inRoute?: string[];
} {
  const unique = randomUUID().slice(0, 8);
  switch (name) {
    case "contact":
      return { route: "/contact", body: { type: "email", address: `${unique}@example.com` } };
    case "contactGroup":
      return { route: "/contact/group", body: { name: `Group ${unique}` } };
    case "monitor":
      return {
        route: "/monitor",
        body: { type: "http", url: `https://example.com/${unique}`, locations: { pools: ["allworld"] } },
      };
    case "alertSubscription":
      return {
        method: "PUT",
        route: `/monitor/${monitorId}/alert/${contactId}`,
        body: { alertTypes: ["down"] },
        inRoute: ["monitorId", "contactId"],
      };
    case "reportSubscription":
      return {
        method: "PUT",
        route: `/monitor/${monitorId}/report/${contactId}`,
        body: { frequencies: ["weekly"] },
        inRoute: ["monitorId", "contactId"],
      };
    case "maintenance":
      return {
        route: "/maintenance",
        body: { name: `Window ${unique}`, from: 2_000_000_000, to: 2_000_003_600 },
      };
    case "statusPage":
      return { route: "/statuspage", body: { slug: `p-${unique}`, title: "Acme" } };
    case "statusPageTemplate":
      return {
        route: `/statuspage/${pageId}/template`,
        body: { title: "Outage", message: "We are on it." },
        inRoute: ["pageId"],
      };
    case "webhook":
      return {
        route: "/webhook",
        body: { url: `https://hooks.example.com/${unique}`, events: ["monitor.down"], scope: { all: true } },
      };
    default:
      // Every kind has its case: a kind added to the registry fails to compile here.
      throw new Error(`no create body for ${name satisfies never}`);
  }
}

const send = (method: "POST" | "PUT", route: string, body: unknown) =>
  c.call(method, route, { body, headers: { "idempotency-key": randomUUID() } });

describe("the kinds' required members", () => {
  it("is declared for every kind", () => {
    for (const kind of kinds) expect(kind.required?.length, kind.name).toBeGreaterThan(0);
  });

  for (const kind of kinds) {
    it(`${kind.name}: a create without one of its required members is refused`, async () => {
      const { method = "POST", route, body, inRoute = [] } = creates(kind);
      for (const member of (kind.required ?? []).filter((m) => !inRoute.includes(m))) {
        const { [member]: _, ...without } = body;
        const res = await send(method, route, without);
        expect(res.status, `${kind.name} without ${member}: ${res.text}`).toBe(422);
        expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(`/${member}`);
      }
      const res = await send(method, route, body);
      expect(res.status, res.text).toBeLessThan(300);
    });
  }
});
