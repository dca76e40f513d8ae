import { describe, expect, test } from "vitest";
import { createBody } from "../../../src/engine/apply/bodies.ts";
import { engineKind } from "../../../src/engine/kinds/index.ts";
import { hashSecret } from "../../../src/engine/state/index.ts";
import { applied, diff, edited, lineage, patch } from "./helpers.ts";

const secret = "fixture-secret-t-0123456789";
const token = "Bearer hook-t-token";
const desired = {
  url: "https://hooks-t.example.net/vigil",
  name: "Events",
  events: ["monitor.up", "monitor.down", "contact.updated"],
  scope: { monitorIds: ["m2", "m1"] },
  headers: [{ header: "Authorization", value: token }],
  secret,
};

/** The row: secret and header values masked, scope with monitorCount, delivery members added. */
const live = {
  id: "w1",
  url: "https://hooks-t.example.net/vigil",
  name: "Events",
  events: ["contact.updated", "monitor.down", "monitor.up"],
  scope: { monitorIds: ["m1", "m2"], monitorCount: 2 },
  headers: [{ header: "Authorization", value: { set: true } }],
  secret: { set: true, updatedAt: 1000, previousValidUntil: null },
  enabled: true,
  consecutiveFailures: 0,
  disabledReason: null,
  lastDeliveryAt: null,
  created: 1000,
  updated: 1000,
};
const prior = applied("webhook", desired);

describe("webhook", () => {
  test("the state records hashes, never the secret or header values", () => {
    expect(prior.secrets).toEqual({
      "/secret": hashSecret(lineage, secret),
      "/headers/0/value": hashSecret(lineage, token),
    });
    expect(JSON.stringify(prior)).not.toContain(secret);
    expect(JSON.stringify(prior)).not.toContain(token);
  });

  test("masked values compared by the prior hashes, monitorCount ignored: no change", () => {
    expect(diff("webhook", desired, { live, prior }).changes).toEqual([]);
  });

  test("without prior hashes (an import, lost state) masked credentials are taken as configured, and named", () => {
    const result = diff("webhook", desired, { live });
    expect(result.changes).toEqual([]);
    expect(result.unverified.sort()).toEqual(["/headers/0/value", "/secret"]);
    expect(result.secrets).toEqual(prior.secrets);
  });

  test("a new header value is a sensitive change, the secret stays unsent", () => {
    const next = edited(desired, (d) => {
      d.headers[0]!.value = "Bearer rotated-token";
    });
    const result = diff("webhook", next, { live, prior });
    expect(result.changes).toEqual([
      {
        op: "replace",
        path: "/headers",
        value: [{ header: "Authorization", value: "(sensitive)" }],
        before: [{ header: "Authorization", value: "(sensitive, differs)" }],
      },
    ]);
    const text = JSON.stringify(result);
    expect(text).not.toContain("rotated-token");
    expect(text).not.toContain(secret);
    // Resending the secret would rotate it: only the headers go.
    expect(patch("webhook", next, result)).toEqual({ headers: next.headers });
  });

  test("a new secret is sent alone", () => {
    const next = { ...desired, secret: "another-secret-0123456789" };
    const result = diff("webhook", next, { live, prior });
    expect(result.changes).toEqual([
      {
        op: "replace",
        path: "/secret",
        value: "(sensitive)",
        before: "(sensitive, differs)",
        sensitive: true,
      },
    ]);
    expect(JSON.stringify(result)).not.toContain("another-secret");
    expect(patch("webhook", next, result)).toEqual({ secret: "another-secret-0123456789" });
  });

  test("drift in events and scope, sets compared without order", () => {
    const changed = { ...live, events: ["monitor.up"], scope: { monitorIds: ["m1"], monitorCount: 1 } };
    const result = diff("webhook", desired, { live: changed, prior });
    expect(result.changes).toEqual(
      expect.arrayContaining([
        {
          op: "replace",
          path: "/events",
          value: ["contact.updated", "monitor.down", "monitor.up"],
          before: ["monitor.up"],
          drift: true,
        },
        { op: "replace", path: "/scope/monitorIds", value: ["m1", "m2"], before: ["m1"], drift: true },
      ]),
    );
    expect(result.changes).toHaveLength(2);
    expect(patch("webhook", desired, result)).toEqual({ events: desired.events, scope: desired.scope });
  });

  test("enabled is update only: not in the create body, and ignoreChanges hides it", () => {
    const withEnabled = { ...desired, enabled: false };
    expect(createBody(engineKind("webhook"), withEnabled)).not.toHaveProperty("enabled");
    const result = diff("webhook", withEnabled, { live, prior });
    expect(result.changes).toEqual([{ op: "replace", path: "/enabled", value: false, before: true }]);
    expect(patch("webhook", withEnabled, result)).toEqual({ enabled: false });
    expect(
      diff("webhook", withEnabled, { live, prior, lifecycle: { ignoreChanges: ["enabled"] } }).changes,
    ).toEqual([]);
  });

  test("a removed name is reset to null; an unknown monitor in the scope is unknown", () => {
    const { name: _, ...unnamed } = desired;
    const result = diff("webhook", unnamed, { live, prior });
    expect(result.changes).toEqual([{ op: "remove", path: "/name", before: "Events" }]);
    expect(patch("webhook", unnamed, result)).toEqual({ name: null });
    const next = { ...desired, scope: { monitorIds: [{ $unknown: "monitors.new" }] } };
    expect(diff("webhook", next, { live, prior }).changes).toEqual([
      expect.objectContaining({ path: "/scope/monitorIds", unknown: true }),
    ]);
  });
});
