import { statusPageKind } from "../../kinds/index.ts";
import { isObject } from "../pointer.ts";
import { plainKind, readOnlyMembers, withoutMembers } from "./engine-kind.ts";

// Components are read-only on the page itself: they are written whole by `PUT /statuspage/{id}/component`.
const readOnly = readOnlyMembers(statusPageKind).filter((name) => name !== "components");

export const statusPageEngineKind = plainKind(statusPageKind, "statusPages", {
  normalizeLive(row) {
    const out = withoutMembers(row, readOnly);
    if (Array.isArray(out.components)) {
      // Ids and live states are the service's; the set is written as names with a monitor or a manual state.
      out.components = out.components.map((c) => (isObject(c) ? withoutMembers(c, ["id", "state"]) : c));
    }
    return out;
  },
  async writeSide(ctx, id, members) {
    await ctx.ops.statusPage.putComponents(
      id,
      { components: (members.components ?? []) as never },
      { idempotencyKey: ctx.idempotencyKey },
    );
  },
});
