import { cascadeSourcesOf } from "../../kinds/index.ts";
import { engineKind } from "../kinds/index.ts";
import type { PlannedAction } from "../model.ts";
import type { Inventory } from "../refresh.ts";

/**
 * The API deletes some objects with others (a monitor's or a contact's subscriptions, as their kinds'
 * relations declare). An object whose old self goes that way is marked cascaded: apply makes no call for it,
 * and checks the delete receipt names it.
 */
export function markCascades(actions: PlannedAction[], inventory: Inventory): void {
  const deleting = new Map<string, string>();
  for (const a of actions) {
    if ((a.action === "delete" || a.action === "replace") && a.id)
      deleting.set(`${a.kind}/${a.id}`, a.address);
  }
  for (const a of actions) {
    if (!a.id || (a.action !== "delete" && a.action !== "replace")) continue;
    const sources = cascadeSourcesOf(engineKind(a.kind).definition);
    if (sources.length === 0) continue;
    const live = inventory.byId.get(a.kind)?.get(a.id);
    const by = sources.map((s) => deleting.get(`${s.kind}/${live?.[s.member]}`)).find((d) => d !== undefined);
    if (by) {
      a.cascadedBy = by;
      if (a.action === "replace") a.replaceOrder = "create-first";
    }
  }
}
