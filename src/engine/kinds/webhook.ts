import { webhookKind } from "../../kinds/index.ts";
import { isObject } from "../pointer.ts";
import { plainKind, readOnlyMembers, withoutMembers } from "./engine-kind.ts";

const readOnly = readOnlyMembers(webhookKind);

export const webhookEngineKind = plainKind(webhookKind, "webhooks", {
  normalizeLive(row) {
    const out = withoutMembers(row, readOnly);
    // The scope reads back with how many monitors it covers now: not part of the configuration.
    if (isObject(out.scope)) out.scope = withoutMembers(out.scope, ["monitorCount"]);
    return out;
  },
});
