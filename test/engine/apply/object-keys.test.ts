import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createObject,
  derivedKeys,
  engineKind,
  isWriteNonce,
  openSession,
  writeNonce,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/**
 * The providers' keys (Terraform, Pulumi) are derived, not journalled: from the nonce of the intended write
 * and from what each step sends, so two requests that differ never share one. A create retried by a new
 * process (the same write) replays the first one's answer; what follows it (a status page's components,
 * written by a call of their own) then differs.
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const kind = engineKind("statusPage");
const nonce = writeNonce();
const keys = (body: unknown, attempt: number) =>
  derivedKeys("tf", ["vigil_status_page", "create", nonce], [JSON.stringify(body), attempt]);
const page = (state: string) => ({
  slug: "keys-page",
  title: "Keys",
  components: [{ name: "Shop", manualState: state }],
});

describe("derived idempotency keys", () => {
  it("give each step the content it sends: a replayed create completed with other components does not collide", async () => {
    const account = await sb.account({ plan: "enterprise" });
    // Two provider processes sending one write (its nonce), the same page body, other components.
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

  it("differ for another write of the same content: another nonce", () => {
    const other = writeNonce();
    const about = (n: string) => derivedKeys("tf", ["vigil_maintenance", "create", n], [{ name: "w" }, 0]);
    expect(about(nonce)("create", { name: "w" })).toBe(about(nonce)("create", { name: "w" }));
    expect(about(other)("create", { name: "w" })).not.toBe(about(nonce)("create", { name: "w" }));
  });
});

describe("write nonces", () => {
  it("are random without a seed, and the same for the same seed (a step a plan fixed)", () => {
    const made = new Set(Array.from({ length: 100 }, () => writeNonce()));
    expect(made.size).toBe(100);
    for (const n of made) expect(isWriteNonce(n)).toBe(true);
    const seed = new Uint8Array(32).fill(7);
    expect(writeNonce(seed)).toBe(writeNonce(Uint8Array.from(seed)));
    expect(writeNonce(seed)).not.toBe(writeNonce(new Uint8Array(32).fill(8)));
    // A seed too short to be random is no seed.
    expect(writeNonce(new Uint8Array(2))).not.toBe(writeNonce(new Uint8Array(2)));
  });

  it("are recognised only in their own form: anything else the host hands back makes a new write", () => {
    for (const bad of [
      undefined,
      42,
      "",
      "x".repeat(32),
      `${writeNonce()}0`,
      "0123456789ABCDEF0123456789ABCDEF",
    ])
      expect(isWriteNonce(bad)).toBe(false);
  });
});
