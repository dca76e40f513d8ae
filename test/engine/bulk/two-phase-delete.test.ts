/**
 * The one two-phase delete (`src/engine/bulk/two-phase-delete.ts`) as both its callers use it: apply, which
 * checks a filter's selection against the complete list it planned on and reads nothing more, and the
 * providers, which check it against the validation's sample or a listing. Each path, and what each item of
 * the delete job comes to.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../src/api/index.ts";
import { applyPolicy, batchPolicy } from "../../../src/engine/bulk/policy.ts";
import { type DeleteRequest, twoPhaseDelete } from "../../../src/engine/bulk/two-phase-delete.ts";
import type { Row } from "../../../src/engine/index.ts";
import { deletesOf, jobOf, recording } from "./recording-context.ts";

const ids = ["m1", "m2", "m3"];
const row = (id: string, extra: Row = {}): Row => ({
  id,
  type: "http",
  url: `https://${id}.example.com/`,
  ...extra,
});

/** A delete request whose phases answer as given, recording the calls made. */
function request(
  calls: string[],
  answers: {
    matched?: number;
    sample?: Row[];
    listed?: string[];
    validate?: Error;
    run?: Error;
    rows?: Parameters<typeof jobOf>[0];
  } = {},
  selection = true,
): DeleteRequest {
  const wanted = new Set(ids.map((id) => `https://${id}.example.com/`));
  return {
    route: "POST /monitor/bulk-delete",
    source: "monitor bulk delete",
    filter: { type: ["http"], url: [...wanted] },
    ...(selection && {
      selection: {
        selects: (m: Row) => wanted.has(String(m.url)),
        listed: async () => {
          calls.push("list");
          return answers.listed ?? ids;
        },
      },
    }),
    validate: async () => {
      calls.push("validate");
      if (answers.validate) throw answers.validate;
      return { matched: answers.matched ?? ids.length, sample: answers.sample ?? ids.map((id) => row(id)) };
    },
    run: async (count) => {
      calls.push(`run ${count}`);
      if (answers.run) throw answers.run;
      return jobOf(
        answers.rows ?? ids.map((id, index) => ({ index, status: "deleted" as const, entityId: id })),
      );
    },
  };
}

const refusal = (status: number, code: string) =>
  new ApiError({ status, body: { code }, headers: {}, route: "POST /monitor/bulk-delete", attempts: 1 });

describe("checking the selection", () => {
  it("apply: against the complete list, before any call; an unmanaged object with a selected address falls back", async () => {
    const calls: string[] = [];
    const extra = row("other", { url: "https://m2.example.com/" });
    const r = recording({ policy: applyPolicy, complete: [...ids.map((id) => row(id)), extra] });
    expect(await twoPhaseDelete(r.ctx, deletesOf(ids), request(calls))).toBe(false);
    expect(calls).toEqual([]);

    const exact = recording({ policy: applyPolicy, complete: ids.map((id) => row(id)) });
    expect(await twoPhaseDelete(exact.ctx, deletesOf(ids), request(calls))).toBe(true);
    // The complete list settled the question: no sample is looked at, nothing is listed.
    expect(calls).toEqual(["validate", "run 3"]);
  });

  it("apply without a complete list reads nothing more: the single deletes take over", async () => {
    const calls: string[] = [];
    const r = recording({ policy: applyPolicy });
    expect(await twoPhaseDelete(r.ctx, deletesOf(ids), request(calls))).toBe(false);
    expect(calls).toEqual([]);
    expect(r.sent).toEqual([]);
  });

  it("a provider: against the validation's sample, or a listing when the sample is shorter", async () => {
    const calls: string[] = [];
    const r = recording({ policy: batchPolicy, reads: true });
    expect(await twoPhaseDelete(r.ctx, deletesOf(ids), request(calls))).toBe(true);
    expect(calls).toEqual(["validate", "run 3"]);

    calls.length = 0;
    const short = request(calls, { sample: [row("m1")] });
    expect(
      await twoPhaseDelete(recording({ policy: batchPolicy, reads: true }).ctx, deletesOf(ids), short),
    ).toBe(true);
    expect(calls).toEqual(["validate", "list", "run 3"]);

    calls.length = 0;
    const other = request(calls, { sample: [row("m1")], listed: ["m1", "m2", "other"] });
    expect(
      await twoPhaseDelete(recording({ policy: batchPolicy, reads: true }).ctx, deletesOf(ids), other),
    ).toBe(false);
    expect(calls).toEqual(["validate", "list"]);
  });

  it("an id filter selects exactly its objects: no check beyond the count", async () => {
    const calls: string[] = [];
    const r = recording({ policy: applyPolicy });
    expect(await twoPhaseDelete(r.ctx, deletesOf(ids), request(calls, {}, false))).toBe(true);
    expect(calls).toEqual(["validate", "run 3"]);
  });

  it("falls back, deleting nothing, when the validation is refused or counts other than these", async () => {
    for (const answers of [{ validate: refusal(422, "filter_required") }, { matched: 4 }]) {
      const calls: string[] = [];
      const r = recording({ policy: batchPolicy, reads: true });
      expect(await twoPhaseDelete(r.ctx, deletesOf(ids), request(calls, answers))).toBe(false);
      expect(calls).toEqual(["validate"]);
      expect(r.outcomes.size).toBe(0);
    }
  });
});

describe("the delete", () => {
  it("a selection changed in between (409 selection_mismatch) deleted nothing: the single deletes take over", async () => {
    const calls: string[] = [];
    const r = recording({ policy: batchPolicy, reads: true });
    const mismatch = request(calls, { run: refusal(409, "selection_mismatch") });
    expect(await twoPhaseDelete(r.ctx, deletesOf(ids), mismatch)).toBe(false);
    expect(r.outcomes.size).toBe(0);
  });

  it("a delete refused otherwise fails every write with its problem", async () => {
    const calls: string[] = [];
    const r = recording({ policy: batchPolicy, reads: true });
    const error = refusal(403, "missing_scope");
    const writes = deletesOf(ids);
    expect(await twoPhaseDelete(r.ctx, writes, request(calls, { run: error }))).toBe(true);
    expect(writes.map((w) => r.outcomes.get(w))).toEqual(writes.map(() => ({ done: false, error })));
  });

  it("settles each write from its own row: deleted, deleted by someone else meanwhile, refused, not reported", async () => {
    const calls: string[] = [];
    const r = recording({ policy: batchPolicy, reads: true });
    const writes = deletesOf(ids);
    const problem = {
      type: "about:blank",
      title: "Insufficient rights",
      status: 403,
      code: "insufficient_rights",
      errors: [{ pointer: "/items/1/id", reason: "not_allowed" }],
    };
    const rows = [
      { index: 0, status: "deleted" as const, entityId: "m1", result: { cascaded: { alerts: ["a1"] } } },
      { index: 1, status: "failed" as const, entityId: "m2", error: problem },
    ];
    const partial = request(calls, { rows });
    expect(await twoPhaseDelete(r.ctx, writes, partial)).toBe(true);
    const [first, second, third] = writes.map((w) => r.outcomes.get(w)!);
    expect(first).toEqual({
      done: true,
      id: "m1",
      status: "deleted",
      receipt: { cascaded: { alerts: ["a1"] } },
      replayed: false,
    });
    expect(second).toMatchObject({ done: false, happened: false });
    const refused = (second as { error: ApiError }).error;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.code).toBe("insufficient_rights");
    // The item's pointer, moved to the object's own.
    expect(refused.errors[0]?.pointer).toBe("/id");
    expect(refused.message).toMatch(/^monitor bulk delete: 403 insufficient_rights/);
    // Not reported: it may have happened, so nothing says it did not.
    expect(third).toEqual({ done: false, error: new Error("job job-1 did not report this item") });
  });
});
