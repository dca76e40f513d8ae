import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  type DesiredResource,
  type ProgressEvent,
  planChanges,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { appliedAccount, changed, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("lifecycle options", () => {
  it("ignoreChanges hides an out-of-band change under its paths and never reverts it", async () => {
    const desired = [
      {
        ...httpMonitor("site", "https://site.lc.example.com/", { settings: { timeout: 15000 } }),
        lifecycle: { ignoreChanges: ["interval", "settings.timeout"] },
      },
    ];
    const { account, ops, time, store, ids } = await appliedAccount(sb, desired);
    const id = ids["monitors.site"]!;
    expect(
      (await account.patch(`/monitor/${id}`, { interval: 600, settings: { timeout: 3000 } })).status,
    ).toBe(200);
    expect(changed((await planChanges({ ops, store, desired, time })).plan)).toEqual([]);
    // A path that is not ignored still shows.
    expect((await account.patch(`/monitor/${id}`, { name: "edited" })).status).toBe(200);
    const { plan } = await planChanges({ ops, store, desired, time });
    expect(changed(plan).flatMap((a) => a.changes.map((c) => c.path))).toEqual(["/name"]);
    await applyChanges({ ops, store, desired, time });
    expect(await ops.monitor.get(id, { expand: ["settings"] })).toMatchObject({
      name: "site",
      interval: 600,
      settings: { timeout: 3000 },
    });
  });

  it("retainOnDelete forgets a removed resource instead of deleting it", async () => {
    const desired = [
      { ...httpMonitor("kept", "https://kept.lc.example.com/"), lifecycle: { retainOnDelete: true } },
      httpMonitor("other", "https://other.lc.example.com/"),
    ];
    const { ops, time, store, ids } = await appliedAccount(sb, desired);
    const rest = desired.slice(1);
    const { plan } = await planChanges({ ops, store, desired: rest, time });
    expect(changed(plan)).toMatchObject([
      { address: "monitors.kept", action: "forget", id: ids["monitors.kept"] },
    ]);
    const applied = await applyChanges({ ops, store, desired: rest, time });
    expect(applied.result.failures).toEqual([]);
    expect(Object.keys(store.saved!.resources)).toEqual(["monitors.other"]);
    expect((await ops.monitor.all()).map((m) => m.id).sort()).toEqual(
      [ids["monitors.kept"], ids["monitors.other"]].sort(),
    );
    expect(changed((await planChanges({ ops, store, desired: rest, time })).plan)).toEqual([]);
  });

  it("credentials never appear in a plan, in the state or in progress lines", async () => {
    const secrets = [
      "pw-lifecycle-1",
      "pw-lifecycle-2",
      "whsec-lifecycle-0123456789",
      "Bearer lifecycle-header",
    ];
    const config = (password: string): DesiredResource[] => [
      httpMonitor("login", "https://login.lc.example.com/", { settings: { username: "checker", password } }),
      {
        address: "webhooks.events",
        kind: "webhook",
        members: {
          url: "https://hooks.lc.example.net/",
          events: ["monitor.down"],
          scope: { all: true },
          secret: secrets[2],
          headers: [{ header: "Authorization", value: secrets[3] }],
        },
      },
    ];
    const { ops, time, store } = await appliedAccount(sb, config(secrets[0]!));
    const lines: string[] = [];
    const onProgress = (event: ProgressEvent) => lines.push(JSON.stringify(event));
    const { plan } = await planChanges({ ops, store, desired: config(secrets[1]!), time, onProgress });
    const password = changed(plan)
      .flatMap((a) => a.changes)
      .find((c) => c.path === "/settings/password");
    expect(password).toMatchObject({ op: "replace", sensitive: true, value: "(sensitive)" });
    const applied = await applyChanges({ ops, store, desired: config(secrets[1]!), time, onProgress });
    expect(applied.result.failures).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);
    expect(changed((await planChanges({ ops, store, desired: config(secrets[1]!), time })).plan)).toEqual([]);
    const visible = [
      JSON.stringify(plan),
      JSON.stringify(applied.plan),
      JSON.stringify(store.saved),
      ...lines,
    ].join("\n");
    for (const secret of secrets) expect(visible).not.toContain(secret);
  });
});
