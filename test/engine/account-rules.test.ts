/**
 * The account checks beyond the refused corpus: what a single write cannot show (an update keeping an
 * interval the plan stopped offering, inline contacts, the warning of a fixed cadence), and their read cost.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, VigilClient } from "../../src/api/index.ts";
import {
  AccountAllowances,
  AccountCheckError,
  applyChanges,
  type DesiredResource,
  judgeWrites,
  MemoryStateStore,
  planChanges,
} from "../../src/engine/index.ts";
import type { AccountView } from "../../src/kinds/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb?.close());

const view: AccountView = {
  intervals: [180, 300, 600],
  maxInlineContacts: 2,
  features: { cron: false, assertions: 0, monitors: 10 },
  usage: { monitors: { used: 9, allowed: 10 } },
};

const monitor = (name: string, members: Record<string, unknown>): DesiredResource => ({
  address: `monitors.${name}`,
  kind: "monitor",
  members: {
    type: "http",
    url: `https://${name}.example.com/`,
    locations: { pools: ["allworld"] },
    ...members,
  },
});

describe("judgeWrites", () => {
  it("refuses inline contacts over the account's limit and of types that cannot be created", () => {
    const contacts = [
      { ref: "a", type: "email", address: "a@example.com" },
      { ref: "b", type: "email", address: "b@example.com" },
      { ref: "c", type: "slack", address: "#c" },
    ];
    const { errors } = judgeWrites(
      view,
      [{ resource: monitor("m", { contacts }), context: { creating: true } }],
      () => [],
    );
    expect(errors.map((d) => [d.pointer, d.code])).toEqual([
      ["/contacts", "too_many_items"],
      ["/contacts/2/type", "contact_type_not_creatable"],
    ]);
    expect(errors[0]!.message).toBe(
      "422 too_many_items: 3 inline contacts; the account allows 2; allowed: at most 2",
    );
  });

  it("refuses an update that keeps an interval the plan no longer offers", () => {
    const resource = monitor("m", { name: "renamed" });
    const { errors } = judgeWrites(
      view,
      [{ resource, context: { creating: false, live: { interval: 60 } } }],
      () => [],
    );
    expect(errors.map((d) => d.code)).toEqual(["package_interval_conflict"]);
    expect(errors[0]!.entry?.allowed).toEqual([180, 300, 600]);
  });

  it("counts the room a quota leaves: only enabled creates take it, and each one past it is refused", () => {
    const writes = ["a", "b", "c"].map((n, i) => ({
      resource: monitor(n, i === 1 ? { enabled: false } : {}),
      context: { creating: true },
    }));
    // 9 of 10 enabled monitors exist (live rows): room for 1.
    const live = Array.from({ length: 9 }, (_, i) => ({ id: String(i), enabled: true }));
    const { errors } = judgeWrites(view, writes, () => live);
    expect(errors.map((d) => [d.address, d.code, d.entry?.feature])).toEqual([
      ["monitors.c", "package_limit", "monitors"],
    ]);
  });
});

describe("on the sandbox", () => {
  it("warns, naming the value stored, when a fixed-cadence type is given an interval; apply stores it", async () => {
    const account = await sb.account({ plan: "business" });
    const ops = operations(new VigilClient({ baseUrl: sb.url, token: account.token }));
    const store = new MemoryStateStore();
    const desired: DesiredResource[] = [
      {
        address: "monitors.cert",
        kind: "monitor",
        members: { type: "sslExp", url: "cert.example.com", interval: 3600 },
      },
    ];
    const { plan, accountWarnings } = await planChanges({ ops, store, desired });
    expect(plan.warnings).toContain(
      "monitors.cert/interval: interval 3600 is ignored: sslExp monitors run every 21600 seconds, and the API stores 21600 (remove interval, or write 21600); allowed: 21600",
    );
    expect(accountWarnings.map((d) => d.severity)).toEqual(["warning"]);
    const applied = await applyChanges({ ops, store, desired });
    expect(applied.result.failures).toEqual([]);
  });

  it("refuses a report to a contact that is not email, the config's or a live one named by its id", async () => {
    const account = await sb.account({ plan: "business" });
    const ops = operations(new VigilClient({ baseUrl: sb.url, token: account.token }));
    const hook = await ops.contact.create({ type: "http", address: "https://hooks.example.com/live" });
    const report = (name: string, contactId: unknown): DesiredResource => ({
      address: `monitors.m.reports.${name}`,
      kind: "reportSubscription",
      members: { monitorId: { $ref: "monitors.m" }, contactId, frequencies: ["weekly"] },
    });
    const desired: DesiredResource[] = [
      { address: "contacts.boss", kind: "contact", members: { type: "email", address: "boss@example.com" } },
      { address: "contacts.pager", kind: "contact", members: { type: "sms", address: "+15550100" } },
      monitor("m", {}),
      report("boss", { $ref: "contacts.boss" }),
      report("pager", { $ref: "contacts.pager" }),
      report("live", String(hook.id)),
    ];
    const planned = planChanges({ ops, store: new MemoryStateStore(), desired });
    const error = (await planned.catch((e: unknown) => e)) as AccountCheckError;
    expect(error).toBeInstanceOf(AccountCheckError);
    expect(error.diagnostics.map((d) => [d.address, d.pointer, d.code, d.entry?.value])).toEqual([
      ["monitors.m.reports.live", "/contactId", "unsupported_report_channel", "http"],
      ["monitors.m.reports.pager", "/contactId", "unsupported_report_channel", "sms"],
    ]);
    expect(error.diagnostics[1]!.message).toBe(
      "422 unsupported_report_channel: a sms contact; reports go to email contacts only; allowed: email",
    );
  });

  it("reads the catalogue and the pools once, whatever the number of resources", async () => {
    const account = await sb.account({ plan: "business" });
    const ops = operations(new VigilClient({ baseUrl: sb.url, token: account.token }));
    const desired = Array.from({ length: 40 }, (_, i) => monitor(`m${i}`, { interval: 45 }));
    let reads = -1;
    const planned = planChanges({
      ops,
      store: new MemoryStateStore(),
      desired,
      onAccountReads: (n) => {
        reads = n;
      },
    });
    await expect(planned).rejects.toBeInstanceOf(AccountCheckError);
    const error = (await planned.catch((e: AccountCheckError) => e)) as AccountCheckError;
    expect(error.diagnostics).toHaveLength(40);
    expect(reads).toBe(2);
    // A second plan of the same allowances reads nothing more.
    const allowances = new AccountAllowances(ops);
    await allowances.view(new Set(["monitorTypes", "agentPools"]));
    await allowances.view(new Set(["monitorTypes", "agentPools"]));
    expect(allowances.reads).toBe(3);
  });
});
