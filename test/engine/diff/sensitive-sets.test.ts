/**
 * A value from the environment inside a set (issue 25, point 6). A set is compared sorted, so a mask placed
 * by position would land on whatever value sorts there: the secret stayed in the state and the plan, the
 * literal was masked instead, and every plan showed a change. The whole set is sensitive instead, as
 * Terraform makes a set holding a sensitive value.
 */
import { describe, expect, test } from "vitest";
import { keptNaturalKey } from "../../../src/engine/kept-natural-key.ts";
import { engineKind } from "../../../src/engine/kinds/index.ts";
import { resolvePending } from "../../../src/engine/recover.ts";
import type { Inventory } from "../../../src/engine/refresh.ts";
import { applied, diff, edited, lineage, patch } from "./helpers.ts";

const secret = "aaa-SECRET-TAG-41f9";
const rotated = "mmm-ROTATED-TAG-77c2";

/** The secret sorts before the literal: sorting moves it from where the config wrote it. */
const desired = {
  type: "http",
  url: "https://sets.example.com/health",
  tags: ["zzz-literal", secret],
  locations: { pools: ["westeurope", secret] },
};
const sensitive = ["/tags/1", "/locations/pools/1"];
const live = {
  id: "m1",
  type: "http",
  url: "https://sets.example.com/health",
  tags: [secret, "zzz-literal"],
  locations: { pools: [secret, "westeurope"] },
  created: 1000,
  updated: 1000,
};

describe("a value from the environment in a set", () => {
  const prior = applied("monitor", desired, { sensitive });

  test("the whole set is masked in the state and in a create's changes; the literal is not masked alone", () => {
    expect(JSON.stringify(prior)).not.toContain(secret);
    expect(prior.managed.tags).toBe("(sensitive)");
    expect(prior.managed.locations).toEqual({ pools: "(sensitive)" });
    expect(Object.keys(prior.secrets ?? {}).sort()).toEqual(["/locations/pools", "/tags"]);
    const created = diff("monitor", desired, { sensitive });
    expect(JSON.stringify(created.changes)).not.toContain(secret);
    const tags = created.changes.find((c) => c.path === "/tags");
    expect(tags).toMatchObject({ value: "(sensitive)", sensitive: true });
  });

  test("the object as applied (its sets in another order) plans no change", () => {
    expect(diff("monitor", desired, { live, prior, sensitive }).changes).toEqual([]);
    // Written in another order, the set is the same set.
    const reordered = { ...desired, tags: [secret, "zzz-literal"] };
    expect(
      diff("monitor", reordered, { live, prior, sensitive: ["/tags/0", "/locations/pools/1"] }).changes,
    ).toEqual([]);
  });

  test("a rotation is one masked change showing neither secret, and the PATCH sends the whole new set", () => {
    const next = edited(desired, (d) => {
      d.tags[1] = rotated;
    });
    const result = diff("monitor", next, { live, prior, sensitive });
    expect(result.changes).toEqual([
      { op: "replace", path: "/tags", value: "(sensitive)", before: "(sensitive, differs)", sensitive: true },
    ]);
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(JSON.stringify(result)).not.toContain(rotated);
    // No addTags/removeTags edit computed from masks: the set goes whole.
    expect(patch("monitor", next, result)).toEqual({ tags: next.tags });
  });

  test("a state that masked an item (before this fix) is read as masking its set: no secret shown", () => {
    const old = {
      managed: { ...prior.managed, tags: [secret, "(sensitive)"] },
      secrets: { "/tags/1": "sha256:old" },
    };
    const result = diff("monitor", desired, { live, prior: old, sensitive });
    expect(JSON.stringify(result.changes)).not.toContain(secret);
    expect(result.managed.tags).toBe("(sensitive)");
  });

  test("a set of objects holding the secret is masked whole too", () => {
    const group = {
      name: "ops",
      members: [
        { contactId: "c-zzz", events: ["down"] },
        { contactId: secret, events: ["up"] },
      ],
    };
    const result = diff("contactGroup", group, { sensitive: ["/members/1/contactId"] });
    expect(result.managed.members).toBe("(sensitive)");
    expect(JSON.stringify(result)).not.toContain(secret);
  });
});

describe("a natural key member holding a secret", () => {
  const url = `https://key.example.com/?token=${secret}`;
  const members = { type: "http", url, locations: { pools: ["westeurope"] } };

  test("is kept hashed in the state, and a lost create is still found by it", () => {
    const kind = engineKind("monitor");
    const { managed, secrets } = applied("monitor", members, { sensitive: ["/url"] });
    const naturalKey = keptNaturalKey(
      kind,
      kind.normalizeDesired(members),
      Object.keys(secrets ?? {}),
      lineage,
    );
    expect(JSON.stringify({ managed, secrets, naturalKey })).not.toContain(secret);
    const row = { id: "m9", type: "http", url, locations: { pools: ["westeurope"] }, created: 1, updated: 1 };
    const state = {
      format_version: 1 as const,
      lineage,
      serial: 1,
      syncCursors: {},
      resources: {
        "monitors.web": {
          kind: "monitor" as const,
          naturalKey,
          managed,
          ...(secrets && { secrets }),
          pending: { action: "create" as const, idempotencyKey: "k", bodyDigest: "d", startedAt: 1 },
        },
      },
    };
    const inventory = {
      rows: new Map([["monitor", [row]]]),
      byId: new Map([["monitor", new Map([["m9", row]])]]),
    } as unknown as Inventory;
    expect(resolvePending(state, inventory)).toEqual([
      "monitors.web: the create of an earlier run had succeeded; adopted m9",
    ]);
    expect(state.resources["monitors.web"]).toMatchObject({ id: "m9" });
  });
});
