import { describe, expect, it } from "vitest";
import type { DesiredResource } from "../../../src/engine/model.ts";
import { LiveMatcher, type MatcherInput } from "../../../src/engine/plan/match.ts";
import { newState } from "../../../src/engine/state/index.ts";
import { contactRow, emailContact, inventoryOf, shopAccount, stateOf } from "./account.ts";

const matcherOf = (input: Omit<MatcherInput, "desired"> & { desired: readonly DesiredResource[] }) =>
  new LiveMatcher({ ...input, desired: new Map(input.desired.map((r) => [r.address, r])) });

describe("LiveMatcher", () => {
  it("matches an address to the object its state names: an update, or a create when it went", () => {
    const a = shopAccount();
    const matcher = matcherOf({ ...a, imports: new Map() });
    expect(matcher.match(a.ops, a.ops.members)).toEqual({
      action: "update",
      live: a.rows.ops,
      reasons: [],
      problems: [],
    });
    const gone = matcherOf({ ...a, inventory: inventoryOf([]), imports: new Map() });
    expect(gone.match(a.ops, a.ops.members)).toEqual({
      action: "create",
      reasons: ["deleted outside vigil"],
      problems: [],
    });
  });

  it("imports by id, refusing an id the account lacks or another address manages", () => {
    const a = shopAccount();
    const other = emailContact("other", "other@example.com");
    const imports = new Map([
      [other.address, "con-ops"],
      ["contacts.missing", "con-404"],
    ]);
    const matcher = matcherOf({ ...a, desired: [...a.desired, other], imports });
    expect(matcher.match(other, other.members)).toEqual({
      action: "import",
      live: a.rows.ops,
      reasons: ["import of con-ops"],
      problems: [
        {
          address: "contacts.other",
          code: "import_managed_elsewhere",
          data: { id: "con-ops", owner: "contacts.ops" },
          message: "import contacts.other: con-ops is already managed as contacts.ops",
        },
      ],
    });
    const missing = emailContact("missing", "missing@example.com");
    expect(matcher.match(missing, missing.members)).toMatchObject({
      action: "import",
      problems: [{ code: "import_not_found", data: { kind: "contact", id: "con-404" } }],
    });
    expect(matcher.match(missing, missing.members).live).toBeUndefined();
  });

  it("takes an import the state already holds at the address as done", () => {
    const a = shopAccount();
    const matcher = matcherOf({ ...a, imports: new Map([[a.ops.address, "con-ops"]]) });
    expect(matcher.match(a.ops, a.ops.members)).toMatchObject({ action: "update", reasons: [] });
  });

  it("adopts a live object by its natural key (case aside for an email), once", () => {
    const a = shopAccount();
    const upper = emailContact("ops", "OPS@example.com");
    const matcher = matcherOf({ ...a, state: newState(), desired: [upper], imports: new Map() });
    expect(matcher.match(upper, upper.members)).toEqual({
      action: "import",
      live: a.rows.ops,
      reasons: ["adopted by natural key"],
      problems: [],
    });
    // Claimed: a second address with the same key creates.
    const twin = { ...upper, address: "contacts.twin" };
    expect(matcher.match(twin, twin.members)).toEqual({ action: "create", reasons: [], problems: [] });
  });

  it("says when there is no state, and moves an object whose address leaves the config", () => {
    const a = shopAccount();
    const noState = matcherOf({ ...a, state: newState(), stateMissing: true, imports: new Map() });
    expect(noState.match(a.ops, a.ops.members).reasons).toEqual(["adopted by natural key (no state)"]);

    const renamed = emailContact("oncall", "ops@example.com");
    const matcher = matcherOf({ ...a, desired: [renamed], imports: new Map() });
    expect(matcher.match(renamed, renamed.members)).toMatchObject({
      action: "import",
      live: a.rows.ops,
      reasons: ["moved from contacts.ops"],
    });
    expect([...matcher.moved]).toEqual([["contacts.ops", "contacts.oncall"]]);
  });

  it("never adopts what another address of the config manages, and refuses an ambiguous key", () => {
    const a = shopAccount();
    const twin = emailContact("twin", "ops@example.com");
    const kept = matcherOf({ ...a, desired: [...a.desired, twin], imports: new Map() });
    expect(kept.match(twin, twin.members)).toEqual({ action: "create", reasons: [], problems: [] });

    const inventory = inventoryOf([
      ["contact", contactRow("c1", "dup@example.com")],
      ["contact", contactRow("c2", "dup@example.com")],
    ]);
    const dup = emailContact("dup", "dup@example.com");
    const matcher = matcherOf({ state: stateOf([]), inventory, desired: [dup], imports: new Map() });
    expect(matcher.match(dup, dup.members)).toEqual({
      action: "create",
      reasons: [],
      problems: [
        {
          address: "contacts.dup",
          code: "ambiguous_natural_key",
          data: { kind: "contact" },
          message: "contacts.dup: several live contacts match its natural key; import one by id",
        },
      ],
    });
  });
});
