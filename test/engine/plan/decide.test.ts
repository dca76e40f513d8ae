import { describe, expect, it } from "vitest";
import type { ResourceDiff } from "../../../src/engine/diff.ts";
import { engineKind } from "../../../src/engine/kinds/index.ts";
import type { Change } from "../../../src/engine/model.ts";
import {
  cascadedReplaceReasons,
  decide,
  replaceOrderOf,
  unverifiedWarning,
} from "../../../src/engine/plan/decide.ts";
import { contactRow } from "./account.ts";

const diffOf = (changes: Change[], replaceReasons: string[] = []): ResourceDiff => ({
  changes,
  replaceReasons,
  managed: {},
  secrets: {},
  unverified: [],
});
const rename: Change = { op: "replace", path: "/name", value: "b", before: "a" };

describe("decide", () => {
  it("keeps an update that changes in place, says drift, and makes one that changes nothing a no-op", () => {
    expect(decide("contacts.a", "update", diffOf([rename]), false)).toEqual({
      action: "update",
      reasons: [],
      problems: [],
    });
    expect(decide("contacts.a", "update", diffOf([{ ...rename, drift: true }]), false).reasons).toEqual([
      "drift: changed outside vigil",
    ]);
    expect(decide("contacts.a", "update", diffOf([]), false).action).toBe("no-op");
  });

  it("replaces what cannot change in place, unless it is protected", () => {
    const diff = diffOf(
      [{ op: "replace", path: "/type", value: "sms", before: "email" }],
      ["type cannot change in place"],
    );
    expect(decide("contacts.a", "update", diff, false)).toEqual({
      action: "replace",
      reasons: ["type cannot change in place"],
      problems: [],
    });
    expect(decide("contacts.a", "update", diff, true).problems).toEqual([
      {
        address: "contacts.a",
        code: "protected_replace",
        data: { replaceReasons: ["type cannot change in place"] },
        message: "contacts.a is protected: the plan would replace it (type cannot change in place)",
      },
    ]);
  });

  it("refuses an import that differs where it cannot change; a create stays a create", () => {
    const diff = diffOf([], ["type cannot change in place"]);
    expect(decide("contacts.a", "import", diff, true)).toEqual({
      action: "import",
      reasons: [],
      problems: [
        {
          address: "contacts.a",
          code: "import_differs",
          data: { replaceReasons: ["type cannot change in place"] },
          message:
            "contacts.a: the object to import differs in members that cannot change (type cannot change in place)",
        },
      ],
    });
    expect(decide("contacts.a", "create", diffOf([rename]), true)).toEqual({
      action: "create",
      reasons: [],
      problems: [],
    });
  });
});

describe("cascadedReplaceReasons", () => {
  it("names the replaced object a member references, and leaves the other reasons as they are", () => {
    const diff = diffOf(
      [
        {
          op: "replace",
          path: "/contactId",
          value: { $unknown: "contacts.ops" },
          before: "c1",
          unknown: true,
        },
        { op: "replace", path: "/monitorId", value: "m2", before: "m1" },
      ],
      ["contactId cannot change in place", "monitorId cannot change in place"],
    );
    expect(cascadedReplaceReasons(diff)).toEqual([
      "contacts.ops is replaced, and contactId cannot change in place",
      "monitorId cannot change in place",
    ]);
  });
});

describe("unverifiedWarning", () => {
  it("says nothing when every credential was verified, and words one and several", () => {
    expect(unverifiedWarning("webhooks.a", [])).toBeUndefined();
    expect(unverifiedWarning("webhooks.a", ["/secret"])).toBe(
      "webhooks.a: the API does not read back secret; vigil takes the configured value as the live one. Change it in the config to rewrite it.",
    );
    expect(unverifiedWarning("contacts.a", ["/httpHeaders/0/value", "/httpHeaders/1/value"])).toBe(
      "contacts.a: the API does not read back httpHeaders.0.value, httpHeaders.1.value; vigil takes the configured values as the live ones. Change them in the config to rewrite them.",
    );
  });
});

describe("replaceOrderOf", () => {
  const contact = engineKind("contact");
  it("deletes first when the new object's natural key is the old one's, else creates first", () => {
    const live = contactRow("c1", "ops@example.com");
    expect(replaceOrderOf(contact, { type: "email", address: "OPS@example.com" }, live)).toBe("delete-first");
    expect(replaceOrderOf(contact, { type: "sms", address: "+15551234567" }, live)).toBe("create-first");
    expect(replaceOrderOf(contact, { type: "email", address: "ops@example.com" }, undefined)).toBe(
      "create-first",
    );
  });
});
