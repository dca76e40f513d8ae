import { webhookKind } from "../../kinds/index.ts";
import { isObject } from "../pointer.ts";
import { plainKind, readOnlyMembers, withoutMembers } from "./engine-kind.ts";

const readOnly = readOnlyMembers(webhookKind);

export const webhookEngineKind = plainKind("webhook", "webhooks", webhookKind, (o) => o.webhooks as never, {
  normalizeLive(row) {
    const out = withoutMembers(row, readOnly);
    // The scope reads back with how many monitors it covers now: not part of the configuration.
    if (isObject(out.scope)) out.scope = withoutMembers(out.scope, ["monitorCount"]);
    return out;
  },
  // The secret and every header value read back masked: compared by the hash of what vigil applied.
  credentials(members) {
    const paths = typeof members.secret === "string" ? ["/secret"] : [];
    if (Array.isArray(members.headers)) {
      for (let i = 0; i < members.headers.length; i++) paths.push(`/headers/${i}/value`);
    }
    return paths;
  },
});
