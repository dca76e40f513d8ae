import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  createBody,
  type DesiredResource,
  engineKind,
  hashSecret,
  MemoryStateStore,
  newState,
  type State,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { appliedAccount, emailContact, engineAccount, httpMonitor } from "./helpers.ts";

/**
 * Idempotency keys never name two different requests: two copies of one state (a teammate and CI, a state
 * restored from Git) at the same serial write without colliding, while a run after a crash still replays
 * the key its journal holds. A conflict that happens anyway is explained in plain words.
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const shop = (interval: number) =>
  httpMonitor("shop", "https://shop.keys.example.com/", { interval, name: "Shop" });

describe("idempotency keys", () => {
  it("two copies of one state at the same serial write different changes, and neither collides", async () => {
    const { ops, time, store } = await appliedAccount(sb, [shop(60)]);
    const copyA = new MemoryStateStore(store.saved);
    const copyB = new MemoryStateStore(store.saved);
    // Each copy updates the same monitor and creates an object at the same new address, differently.
    const a = await applyChanges({
      ops,
      store: copyA,
      desired: [shop(120), emailContact("new", "a@keys.example.com")],
      time,
    });
    const b = await applyChanges({
      ops,
      store: copyB,
      desired: [shop(300), emailContact("new", "b@keys.example.com")],
      time,
    });
    expect(a.result.failures).toEqual([]);
    expect(b.result.failures).toEqual([]);
    expect(b.plan.actions.map((x) => [x.address, x.action])).toEqual([
      ["contacts.new", "create"],
      ["monitors.shop", "update"],
    ]);
    const [monitor] = await ops.monitor.all();
    expect(monitor?.interval).toBe(300);
    expect((await ops.contact.all()).map((c) => c.address).sort()).toEqual([
      "a@keys.example.com",
      "b@keys.example.com",
    ]);
  });

  // A monitor type without an address has no natural key: a create left unconfirmed by a crash can be
  // found again only by replaying its journalled key.
  const snmp: DesiredResource = {
    address: "monitors.switch",
    kind: "monitor",
    members: { type: "snmp", name: "Core switch" },
  };
  const body = createBody(engineKind("monitor"), snmp.members);

  /** The state a run left when it crashed after sending the create under `key`: the create still pending. */
  function crashedState(key: string): State {
    const state = newState();
    state.resources[snmp.address] = {
      kind: "monitor",
      naturalKey: { type: "snmp", url: null },
      managed: {},
      pending: {
        action: "create",
        idempotencyKey: key,
        bodyDigest: hashSecret(state.lineage, body),
        startedAt: Math.floor(Date.now() / 1000),
      },
    };
    return state;
  }

  it("a run after a crash replays the journalled key: the service answers the first create", async () => {
    const { account, ops, time } = await engineAccount(sb);
    const key = "vigil-crashed-run-1";
    const sent = await account.post("/monitor", body, { headers: { "idempotency-key": key } });
    expect(sent.status, sent.text).toBe(201);
    const store = new MemoryStateStore(crashedState(key));
    const { result, notes } = await applyChanges({ ops, store, desired: [snmp], time });
    expect(result.failures).toEqual([]);
    expect(notes).toContain(
      "monitors.switch: an earlier create is unconfirmed; it is sent again with the same idempotency key",
    );
    expect(store.saved?.resources[snmp.address]?.id).toBe(sent.body.id);
    expect(await ops.monitor.all()).toHaveLength(1);
  });

  it("a conflict that happens anyway is explained: what it means, the likely cause, what to do", async () => {
    const { account, ops, time } = await engineAccount(sb);
    // Another run, from a copy of the same state, sent a different create under the journalled key.
    const key = "vigil-crashed-run-2";
    const other = await account.post(
      "/monitor",
      { ...body, name: "Edge switch" },
      { headers: { "idempotency-key": key } },
    );
    expect(other.status, other.text).toBe(201);
    const store = new MemoryStateStore(crashedState(key));
    const { result } = await applyChanges({ ops, store, desired: [snmp], time });
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]!.message).toMatch(
      /^POST \/monitor was refused: its Idempotency-Key was already used, within the service's 24 hours, for a different request \(409 idempotency_key_conflict, different_body; request \S+\)\. This request changed nothing\. The likely cause is another run from a copy of the same state \(a teammate's checkout, CI, or a state restored from Git\) that sent a different change\. Bring this copy of the state up to date with the newest one, then plan again and review the plan before applying\.$/,
    );
    expect((await ops.monitor.all()).map((m) => m.name)).toEqual(["Edge switch"]);
  });
});
