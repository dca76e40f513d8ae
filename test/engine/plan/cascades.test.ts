import { describe, expect, it } from "vitest";
import type { PlannedAction } from "../../../src/engine/model.ts";
import { markCascades } from "../../../src/engine/plan/cascades.ts";
import { shopAccount } from "./account.ts";

const action = (address: string, kind: PlannedAction["kind"], type: PlannedAction["action"], id: string) =>
  ({ address, kind, action: type, id, reasons: [], changes: [] }) as PlannedAction;

describe("markCascades", () => {
  it("marks a subscription whose monitor or contact goes, by the first that goes", () => {
    const { inventory } = shopAccount();
    const alert = action("alertSubscriptions.shop-ops", "alertSubscription", "delete", "als-shop-ops");
    const actions = [
      action("contacts.ops", "contact", "delete", "con-ops"),
      action("monitors.shop", "monitor", "delete", "mon-shop"),
      alert,
    ];
    markCascades(actions, inventory);
    expect(alert.cascadedBy).toBe("monitors.shop");
    expect(actions.map((a) => a.cascadedBy)).toEqual([undefined, undefined, "monitors.shop"]);
  });

  it("makes a cascaded replace create first, and leaves what stays alone", () => {
    const { inventory } = shopAccount();
    const alert = {
      ...action("alertSubscriptions.shop-ops", "alertSubscription", "replace", "als-shop-ops"),
    };
    alert.replaceOrder = "delete-first";
    markCascades([action("contacts.ops", "contact", "replace", "con-ops"), alert], inventory);
    expect(alert).toMatchObject({ cascadedBy: "contacts.ops", replaceOrder: "create-first" });

    const kept = action("alertSubscriptions.shop-ops", "alertSubscription", "delete", "als-shop-ops");
    markCascades([action("monitors.shop", "monitor", "update", "mon-shop"), kept], inventory);
    expect(kept.cascadedBy).toBeUndefined();
  });
});
