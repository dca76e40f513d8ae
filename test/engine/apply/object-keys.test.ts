import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createObject, derivedKeys, engineKind, openSession } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/**
 * The providers' keys (Terraform, Pulumi) are derived, not journalled: they must name what each step sends,
 * so two requests that differ never share one. A create retried by a new process replays the first one's
 * answer; what follows it (a status page's components, written by a call of their own) then differs.
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const kind = engineKind("statusPage");
const keys = (body: unknown, attempt: number) =>
  derivedKeys("tf", ["vigil_status_page", "create"], [JSON.stringify(body), attempt]);
const page = (state: string) => ({
  slug: "keys-page",
  title: "Keys",
  components: [{ name: "Shop", manualState: state }],
});

describe("derived idempotency keys", () => {
  it("give each step the content it sends: a replayed create completed with other components does not collide", async () => {
    const account = await sb.account({ plan: "enterprise" });
    // Two provider processes (two copies of one Terraform state), the same page body, other components.
    const first = await createObject(
      openSession(sb.url, account.token, { keyPrefix: "test" }),
      kind,
      page("operational"),
      keys,
    );
    const second = await createObject(
      openSession(sb.url, account.token, { keyPrefix: "test" }),
      kind,
      page("degraded"),
      keys,
    );
    expect(second.id).toBe(first.id);
    const read = await account.get(`/statuspage/${first.id}`);
    expect(read.body.components.map((c: { manualState: string }) => c.manualState)).toEqual(["degraded"]);
  });

  it("differ for different content of one step, and match for the same", () => {
    const keyFor = keys({ slug: "a" }, 0);
    expect(keyFor("side", { id: "p", side: { components: [] } })).toBe(
      keyFor("side", { id: "p", side: { components: [] } }),
    );
    expect(keyFor("side", { id: "p", side: { components: [] } })).not.toBe(
      keyFor("side", { id: "p", side: { components: [{ name: "x" }] } }),
    );
    expect(keyFor("update", { id: "p", body: { title: "a" } })).not.toBe(
      keyFor("update", { id: "p", body: { title: "b" } }),
    );
  });
});
