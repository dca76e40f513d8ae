import { describe, expect, it } from "vitest";
import { releasedAt, week } from "../../src/kinds/index.ts";
import { expectedNotifications, pagesOnDown, routingMatrix } from "../../src/routing/index.ts";
import { resourcesOf } from "./load.ts";

/** The routing matrix from a configuration as written: who is reached, on which channel, after what, why not. */

const config = `
contacts:
  pager: { type: http, address: "https://hooks.example.com/pager" }
  slack: { type: http, address: "https://hooks.slack.com/services/T0/B0/x" }
  phone: { type: sms, address: "+15555550123", alertDelay: 5 }
  ops: { type: email, address: ops@example.com, alertDelay: 10 }
monitors:
  api:
    type: http
    url: https://api.example.com/health
    locations: { pools: [allworld] }
    tags: [prod]
    attached: { sslExp: true, dnsbl: false }
    alerts:
      - { contact: pager, alertTypes: [down, up, repeatedlyDown] }
      - { contact: phone, alertTypes: [down] }
      - { contact: ops, alertTypes: [up] }
  cert:
    type: sslExp
    url: shop.example.com
    alerts:
      - { contact: pager, alertTypes: [down] }
      - { contact: slack, alertTypes: [down] }
  paused:
    type: http
    url: https://old.example.com/
    locations: { pools: [allworld] }
    enabled: false
    alerts:
      - { contact: pager, alertTypes: [down] }
  lonely: { type: http, url: https://lonely.example.com/, locations: { pools: [allworld] } }
maintenance:
  deploy:
    name: Weekly deploy
    from: 2027-01-03T02:00:00Z
    to: 2027-01-03T03:00:00Z
    repeat: weekly
    monitors: [api]
  stats-only:
    name: Not suppressing
    from: 2027-01-03T02:00:00Z
    to: 2027-01-03T03:00:00Z
    suppressAlerts: false
    monitors: [cert]
  long-gone:
    name: Long gone
    from: 2020-01-01T00:00:00Z
    to: 2020-01-02T00:00:00Z
    monitors: [cert]
webhooks:
  bot:
    url: https://hooks.example.com/bot
    events: [monitor.down, monitor.up, incident.opened, monitor.created]
    scope: { tags: [prod] }
`;
const deployStart = Date.parse("2027-01-03T02:00:00Z") / 1000;
const now = deployStart - 86400;

describe("routingMatrix", () => {
  it("lists each subscription and covering webhook with channel, types, delay and outcome", async () => {
    const matrix = routingMatrix(await resourcesOf(config), { now });
    const brief = matrix.routes.map((r) => [
      r.monitor,
      r.contact ?? r.webhook,
      r.channel,
      r.alertTypes.join(","),
      r.delayMinutes,
      r.outcome,
      r.reason ?? "",
    ]);
    expect(brief).toEqual([
      ["api", "pager", "http", "down,up,repeatedlyDown", 0, "sent", ""],
      ["api", "phone", "sms", "down", 5, "sent", ""],
      ["api", "ops", "email", "up", 10, "sent", ""],
      // monitor.down waits for the shortest delay among the down subscribers: the pager's 0.
      ["api", "bot", "webhook", "down,up", 0, "sent", ""],
      // A certificate monitor's alerts are notices: a plain http contact does not get them.
      ["cert", "pager", "http", "down", 0, "blocked", "no_gateway"],
      ["cert", "slack", "http", "down", 0, "sent", ""],
      ["paused", "pager", "http", "down", 0, "none", "paused"],
    ]);
    // The certificate notices of api's attached check miss the plain http contact only.
    expect(
      matrix.routes.filter((r) => r.missedNotices).map((r) => [r.monitor, r.contact, r.missedNotices]),
    ).toEqual([["api", "pager", ["certificate"]]]);
    const bot = matrix.routes.find((r) => r.webhook === "bot")!;
    expect(bot).toMatchObject({
      contact: null,
      confirmed: true,
      events: ["incident.opened", "monitor.down", "monitor.up"],
    });
    expect(matrix.monitors.map((m) => [m.monitor, m.notice, m.attachedNotices, m.downDelayMinutes])).toEqual([
      ["api", null, ["certificate"], 0],
      ["cert", "certificate", [], 0],
      ["paused", null, [], 0],
      ["lonely", null, [], 0],
    ]);
  });

  it("names the suppressing windows that hold a monitor's alerts, and leaves out those over by now", async () => {
    const matrix = routingMatrix(await resourcesOf(config), { now });
    const api = matrix.monitors.find((m) => m.monitor === "api")!;
    expect(api.heldBy).toEqual([
      {
        maintenance: "deploy",
        title: "Weekly deploy",
        from: deployStart,
        to: deployStart + 3600,
        repeat: "weekly",
      },
    ]);
    expect(api.routes.every((r) => r.heldBy === api.heldBy)).toBe(true);
    // A window that does not suppress alerts holds nothing; one long over neither.
    expect(matrix.monitors.find((m) => m.monitor === "cert")!.heldBy).toEqual([]);
  });

  it("takes only the listed email, sms and voice contacts as confirmed; http contacts are born confirmed", async () => {
    const resources = await resourcesOf(config);
    const matrix = routingMatrix(resources, { now, confirmed: new Set(["ops"]) });
    const api = matrix.routes.filter((r) => r.monitor === "api" && r.contact !== null);
    expect(api.map((r) => [r.contact, r.confirmed, r.outcome, r.reason ?? ""])).toEqual([
      ["pager", true, "sent", ""],
      ["phone", false, "blocked", "unconfirmed"],
      ["ops", true, "sent", ""],
    ]);
    // Nothing says otherwise: every contact counts as confirmed.
    expect(routingMatrix(resources, { now }).routes.every((r) => r.confirmed)).toBe(true);
  });

  it("tells which routes page someone on down", async () => {
    const matrix = routingMatrix(await resourcesOf(config), { now });
    const paged = (name: string) =>
      matrix.monitors
        .find((m) => m.monitor === name)!
        .routes.filter(pagesOnDown)
        .map((r) => r.contact);
    expect(paged("api")).toEqual(["pager", "phone"]);
    expect(paged("cert")).toEqual(["slack"]);
    expect(paged("paused")).toEqual([]);
    expect(paged("lonely")).toEqual([]);
  });
});

describe("expectedNotifications", () => {
  it("reaches each contact after its delay, reminds every 30 minutes, and sends up to those reached", async () => {
    const matrix = routingMatrix(await resourcesOf(config), { now });
    const api = matrix.monitors.find((m) => m.monitor === "api")!;
    const downAt = now;
    const got = expectedNotifications(api, { downAt, upAt: downAt + 65 * 60, until: downAt + 2 * 3600 });
    expect(got.map((n) => [(n.at - downAt) / 60, n.contact ?? n.webhook, n.event ?? n.alertType])).toEqual([
      [0, "bot", "incident.opened"],
      [0, "bot", "monitor.down"],
      [0, "pager", "down"],
      [5, "phone", "down"],
      [30, "pager", "repeatedlyDown"],
      [60, "pager", "repeatedlyDown"],
      [65, "bot", "monitor.up"],
      [65, "ops", "up"],
      [65, "pager", "up"],
    ]);
  });

  it("holds alerts in a suppressing window and sends what is due when it ends; recovering first sends nothing", async () => {
    const matrix = routingMatrix(await resourcesOf(config), { now });
    const api = matrix.monitors.find((m) => m.monitor === "api")!;
    // A week after the first occurrence, ten minutes into the window.
    const downAt = deployStart + week + 600;
    const got = expectedNotifications(api, { downAt, until: downAt + 3600 });
    const end = deployStart + week + 3600;
    expect(got.map((n) => [n.at - end, n.contact ?? n.event, n.alertType])).toEqual([
      [-3000, "incident.opened", null],
      [0, "monitor.down", "down"],
      [0, "pager", "down"],
      [0, "phone", "down"],
      // The tier at 30 minutes fell inside the window and is skipped; the one at 60 goes out.
      [600, "pager", "repeatedlyDown"],
    ]);
    // Down and up inside the window: the incident is opened and closed, and nothing else goes out.
    const inside = expectedNotifications(api, { downAt, upAt: downAt + 600, until: downAt + 3600 });
    expect(inside.map((n) => n.event ?? n.alertType)).toEqual(["incident.opened"]);
  });

  it("sends nothing for a paused monitor, and a contact whose delay outlasts the outage hears nothing", async () => {
    const matrix = routingMatrix(await resourcesOf(config), { now });
    const paused = matrix.monitors.find((m) => m.monitor === "paused")!;
    expect(expectedNotifications(paused, { downAt: now, upAt: now + 600, until: now + 3600 })).toEqual([]);
    const api = matrix.monitors.find((m) => m.monitor === "api")!;
    const short = expectedNotifications(api, { downAt: now, upAt: now + 4 * 60, until: now + 3600 });
    expect(short.filter((n) => n.contact !== null).map((n) => `${n.contact} ${n.alertType}`)).toEqual([
      "pager down",
      "pager up",
    ]);
  });
});

describe("releasedAt", () => {
  const weekly = { from: 1000, to: 4600, repeat: "weekly" as const };
  it("is the moment itself outside any window, and the end of the occurrence inside one", () => {
    expect(releasedAt([weekly], 999)).toBe(999);
    expect(releasedAt([weekly], 1000)).toBe(4600);
    expect(releasedAt([weekly], 4600)).toBe(4600);
    expect(releasedAt([weekly], 1000 + 3 * week + 10)).toBe(4600 + 3 * week);
  });
  it("follows windows that join, and is Infinity when they never end", () => {
    const next = { from: 4600, to: 8200, repeat: "none" as const };
    expect(releasedAt([weekly, next], 2000)).toBe(8200);
    const always = { from: 0, to: week, repeat: "weekly" as const };
    expect(releasedAt([always], 5 * week + 1)).toBe(Number.POSITIVE_INFINITY);
  });
});
