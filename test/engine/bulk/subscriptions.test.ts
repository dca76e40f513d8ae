/**
 * The subscriptions' one transaction (`src/engine/bulk/subscriptions.ts`), for apply and the providers alike:
 * the items a refusal names fail alone (a delete of a pair already gone is done), the rest are sent again for
 * as long as two or more remain, and every write is settled, however many rounds that takes.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../src/api/index.ts";
import { bulkRoutes } from "../../../src/engine/bulk/index.ts";
import { applyPolicy } from "../../../src/engine/bulk/policy.ts";
import type { BulkWrite } from "../../../src/engine/bulk/route.ts";
import { engineKind, type Members } from "../../../src/engine/index.ts";
import { recording } from "./recording-context.ts";

const alerts = engineKind("alertSubscription");
const route = bulkRoutes.alertSubscription!;

const create = (monitorId: string): BulkWrite => ({
  op: "create",
  kind: alerts,
  body: { monitorId, contactId: "c1", alertTypes: ["down"] },
});
const remove = (monitorId: string): BulkWrite => ({
  op: "delete",
  kind: alerts,
  live: { id: `s-${monitorId}`, monitorId, contactId: "c1", alertTypes: ["down"] },
});

/** A transaction refused (422) at each round for the items whose monitor is listed, with these reasons. */
function refusing(rounds: Record<string, string>[], bodies: Members[]) {
  return {
    alertSubscriptions: {
      bulk: async (body: { create?: Members[]; delete?: Members[] }) => {
        bodies.push(body);
        const refusals = rounds[bodies.length - 1] ?? {};
        const errors = (["create", "delete"] as const).flatMap((side) =>
          (body[side] ?? []).flatMap((item, i) => {
            const reason = refusals[String(item.monitorId)];
            return reason
              ? [{ pointer: `/${side}/${i}/monitorId`, reason, message: `${item.monitorId}: ${reason}` }]
              : [];
          }),
        );
        if (errors.length > 0)
          throw new ApiError({
            status: 422,
            body: { code: "validation_failed", title: "Validation failed", status: 422, errors },
            headers: {},
            route: "POST /alert/bulk",
            attempts: 1,
          });
        return {
          created: (body.create ?? []).map((item) => ({ id: `s-${item.monitorId}`, ...item })),
          deleted: [],
        };
      },
    },
  };
}

describe("the subscription transaction", () => {
  it("sends the rest again after each refusal, until every write is settled; a last one goes alone", async () => {
    const bodies: Members[] = [];
    // Three rounds of refusals: m1, then m2, then m3; m4 and m5 go through in the fourth.
    const rounds: Record<string, string>[] = [
      { m1: "unknown_monitor" },
      { m2: "unknown_monitor" },
      { m3: "unknown_monitor" },
    ];
    const r = recording({ policy: applyPolicy, ops: refusing(rounds, bodies) });
    const writes = ["m1", "m2", "m3", "m4", "m5"].map(create);
    await route.send(r.ctx, writes);
    expect(bodies.map((b) => (b.create as Members[]).map((i) => i.monitorId))).toEqual([
      ["m1", "m2", "m3", "m4", "m5"],
      ["m2", "m3", "m4", "m5"],
      ["m3", "m4", "m5"],
      ["m4", "m5"],
    ]);
    const [m1, , , m4] = writes.map((w) => r.outcomes.get(w));
    expect(m1).toMatchObject({ done: false });
    const refused = (m1 as { error: ApiError }).error;
    expect(refused.errors.map((e) => e.pointer)).toEqual(["/monitorId"]);
    expect(refused.detail).toBe("m1: unknown_monitor");
    expect(m4).toMatchObject({ done: true, id: "s-m4", status: "created" });
    expect(writes.every((w) => r.outcomes.has(w))).toBe(true);

    // Refused down to one: that one takes its single route.
    const last = recording({ policy: applyPolicy, ops: refusing([{ m1: "unknown_monitor" }], []) });
    const two = ["m1", "m2"].map(create);
    await route.send(last.ctx, two);
    expect(last.alone).toEqual([two[1]]);
  });

  it("a delete of a pair already gone is done; a refusal that names no item fails them all", async () => {
    const r = recording({ policy: applyPolicy, ops: refusing([{ m1: "not_subscribed" }], []) });
    const writes = ["m1", "m2", "m3"].map(remove);
    await route.send(r.ctx, writes);
    expect(writes.map((w) => r.outcomes.get(w)?.done)).toEqual([true, true, true]);

    const error = new ApiError({
      status: 403,
      body: { code: "missing_scope" },
      headers: {},
      route: "POST /alert/bulk",
      attempts: 1,
    });
    const bulk = async () => {
      throw error;
    };
    const failing = recording({ policy: applyPolicy, ops: { alertSubscriptions: { bulk } } });
    const three = ["m1", "m2", "m3"].map(create);
    await route.send(failing.ctx, three);
    expect(three.map((w) => failing.outcomes.get(w))).toEqual(three.map(() => ({ done: false, error })));
  });
});
