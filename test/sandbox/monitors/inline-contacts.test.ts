import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { httpMonitor, refusal } from "./fixtures.ts";

/** Inline `contacts`, `alertSubscriptions` and `reportSubscriptions` on monitor create. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

type Account = Awaited<ReturnType<TestSandbox["account"]>>;
let keys = 0;
const key = () => ({ headers: { "Idempotency-Key": `inline-${++keys}` } });
const email = (ref: string, address: string) => ({ ref, type: "email", address });

async function contactsOf(acct: Account) {
  return (await acct.get("/contact?limit=500")).body.data as Array<{
    id: string;
    type: string;
    address: string;
  }>;
}
async function outboxFor(acct: Account) {
  return (await sb.outbox()).filter((m: { accountId: string }) => m.accountId === acct.accountId);
}
async function subscriptionsOf(acct: Account, monitorId: string) {
  return (await acct.get(`/monitor/${monitorId}?expand=subscription`)).body.subscription;
}

describe("preconditions", () => {
  it("needs an Idempotency-Key: 400 idempotency_key_required", async () => {
    const acct = await sb.account();
    const res = await acct.post("/monitor", httpMonitor({ contacts: [email("a", "a@example.com")] }));
    expect(refusal(res)).toEqual({ status: 400, code: "idempotency_key_required" });
    expect(await contactsOf(acct)).toEqual([]);
  });

  it("needs contact:write besides monitor:write", async () => {
    const acct = await sb.account();
    const token = (await sb.mint({ accountId: acct.accountId, scopes: ["monitor"] })).body.token;
    const res = await acct.post("/monitor", httpMonitor({ contacts: [email("a", "a@example.com")] }), {
      ...key(),
      token,
    });
    expect(refusal(res)).toEqual({
      status: 403,
      code: "missing_scope",
      errors: [{ required: "contact:write", granted: ["monitor"] }],
    });
    expect((await acct.get("/monitor")).body.data).toEqual([]);
  });

  it("checks the body first: a missing ref answers 422 even without the scope or a key", async () => {
    const acct = await sb.account();
    const token = (await sb.mint({ accountId: acct.accountId, scopes: ["monitor:write"] })).body.token;
    const res = await acct.post(
      "/monitor",
      httpMonitor({ contacts: [{ type: "email", address: "a@example.com" }] }),
      {
        token,
      },
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/contacts/0/ref", reason: "required" }],
    });
  });

  it("subscriptions to existing contacts alone need neither a key nor contact:write", async () => {
    const acct = await sb.account();
    const hook = await acct.post("/contact", { type: "http", address: "https://hooks.example.com/a" });
    expect(hook.status, hook.text).toBe(201);
    const token = (await sb.mint({ accountId: acct.accountId, scopes: ["monitor"] })).body.token;
    const res = await acct.post(
      "/monitor",
      httpMonitor({ alertSubscriptions: [{ contactIds: [hook.body.id], alertTypes: ["down"] }] }),
      { token },
    );
    expect(res.status, res.text).toBe(201);
    expect((await subscriptionsOf(acct, res.body.id)).alert).toEqual([
      { id: expect.stringMatching(/^als_/), contactId: hook.body.id, alertTypes: ["down"] },
    ]);
  });
});

describe("creating and binding contacts", () => {
  it("creates the contacts, writes the subscriptions and shows them with expand=subscription", async () => {
    const acct = await sb.account();
    const res = await acct.post(
      "/monitor",
      httpMonitor({
        contacts: [
          email("ops", "ops@example.com"),
          { ref: "hook", type: "http", address: "https://hooks.example.com/ops", name: "Ops hook" },
        ],
        alertSubscriptions: [
          { contactRefs: ["ops"], alertTypes: ["down", "up"] },
          { contactRefs: ["hook", "ops"], alertTypes: ["repeatedlyDown"] },
        ],
        reportSubscriptions: [{ contactRefs: ["ops"], frequency: "weekly" }],
      }),
      key(),
    );
    expect(res.status, res.text).toBe(201);
    const contacts = await contactsOf(acct);
    const ops = contacts.find((c) => c.address === "ops@example.com")!;
    const hook = contacts.find((c) => c.address === "https://hooks.example.com/ops")!;
    expect(contacts).toHaveLength(2);
    const subscription = await subscriptionsOf(acct, res.body.id);
    expect(subscription.alert).toEqual(
      expect.arrayContaining([
        {
          id: expect.stringMatching(/^als_/),
          contactId: ops.id,
          alertTypes: ["down", "up", "repeatedlyDown"],
        },
        { id: expect.stringMatching(/^als_/), contactId: hook.id, alertTypes: ["repeatedlyDown"] },
      ]),
    );
    expect(subscription.alert).toHaveLength(2);
    expect(subscription.report).toEqual([
      { id: expect.stringMatching(/^rsub_/), contactId: ops.id, frequencies: ["weekly"] },
    ]);
  });

  it("sends a new email contact a confirmation code; an http contact is born confirmed", async () => {
    const acct = await sb.account();
    const res = await acct.post(
      "/monitor",
      httpMonitor({
        contacts: [
          email("me", "confirm-me@example.com"),
          { ref: "h", type: "http", address: "https://h.example.com/" },
        ],
      }),
      key(),
    );
    expect(res.status, res.text).toBe(201);
    const contacts = await contactsOf(acct);
    const me = contacts.find((c) => c.type === "email")!;
    const outbox = await outboxFor(acct);
    expect(outbox).toEqual([
      expect.objectContaining({
        kind: "confirmation",
        channel: "email",
        to: "confirm-me@example.com",
        contactId: me.id,
        code: expect.stringMatching(/^\d{6}$/),
      }),
    ]);
    const read = await acct.get(`/contact/${me.id}`);
    expect(read.body.confirmed).toBe(false);
    expect((await acct.get(`/contact/${contacts.find((c) => c.type === "http")!.id}`)).body.confirmed).toBe(
      true,
    );
  });

  it("binds an existing contact by address instead of duplicating it, sending no new code", async () => {
    const acct = await sb.account();
    const first = await acct.post(
      "/monitor",
      httpMonitor({
        contacts: [email("a", "Shared@Example.com")],
        alertSubscriptions: [{ contactRefs: ["a"], alertTypes: ["down"] }],
      }),
      key(),
    );
    expect(first.status, first.text).toBe(201);
    const [contact] = await contactsOf(acct);
    const codes = (await outboxFor(acct)).length;
    const second = await acct.post(
      "/monitor",
      httpMonitor({
        contacts: [email("b", "shared@example.com")],
        alertSubscriptions: [{ contactRefs: ["b"], alertTypes: ["up"] }],
      }),
      key(),
    );
    expect(second.status, second.text).toBe(201);
    expect(await contactsOf(acct)).toHaveLength(1);
    expect((await subscriptionsOf(acct, second.body.id)).alert).toEqual([
      { id: expect.stringMatching(/^als_/), contactId: contact!.id, alertTypes: ["up"] },
    ]);
    expect(await outboxFor(acct)).toHaveLength(codes);
  });

  it("replays the same key and body without creating anything twice", async () => {
    const acct = await sb.account();
    const body = httpMonitor({
      contacts: [email("a", "replay@example.com")],
      alertSubscriptions: [{ contactRefs: ["a"], alertTypes: ["down"] }],
    });
    const once = await acct.post("/monitor", body, { headers: { "Idempotency-Key": "replay-1" } });
    const twice = await acct.post("/monitor", body, { headers: { "Idempotency-Key": "replay-1" } });
    expect(once.status).toBe(201);
    expect(twice.status).toBe(201);
    expect(twice.headers["idempotency-replayed"]).toBe("true");
    expect(twice.text).toBe(once.text);
    expect((await acct.get("/monitor")).body.data).toHaveLength(1);
    expect(await contactsOf(acct)).toHaveLength(1);
  });
});

describe("refusals", () => {
  it("refuses a subscription naming a ref no inline contact has", async () => {
    const acct = await sb.account();
    const res = await acct.post(
      "/monitor",
      httpMonitor({
        contacts: [email("a", "a@example.com")],
        alertSubscriptions: [{ contactRefs: ["a", "b"], alertTypes: ["down"] }],
      }),
      key(),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_contact_ref",
      errors: [{ pointer: "/alertSubscriptions/0/contactRefs/1", value: "b", allowed: ["a"] }],
    });
  });

  it("refuses a subscription naming neither contactIds nor contactRefs, and an unknown contact id", async () => {
    const acct = await sb.account();
    const none = await acct.post("/monitor", httpMonitor({ alertSubscriptions: [{ alertTypes: ["down"] }] }));
    expect(refusal(none)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/alertSubscriptions/0", reason: "required" }],
    });
    const ghost = "00000000-0000-4000-8000-000000000000";
    const res = await acct.post(
      "/monitor",
      httpMonitor({ reportSubscriptions: [{ contactIds: [ghost], frequency: "weekly" }] }),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/reportSubscriptions/0/contactIds/0", value: ghost, reason: "not_found" }],
    });
  });

  it("refuses repeated refs, bad contact addresses and alert delays", async () => {
    const acct = await sb.account();
    const twice = await acct.post(
      "/monitor",
      httpMonitor({ contacts: [email("a", "a@example.com"), email("a", "b@example.com")] }),
      key(),
    );
    expect(refusal(twice)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/contacts/1/ref", value: "a", reason: "duplicate" }],
    });
    const bad = await acct.post("/monitor", httpMonitor({ contacts: [email("a", "not-an-address")] }), key());
    expect(refusal(bad)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/contacts/0/address",
          value: "not-an-address",
          reason: "invalid_format",
          expected: "an email address",
        },
      ],
    });
    const delay = await acct.post(
      "/monitor",
      httpMonitor({ contacts: [{ ...email("a", "late@example.com"), alertDelay: 1441 }] }),
      key(),
    );
    expect(refusal(delay)).toEqual({
      status: 422,
      code: "invalid_alert_delay",
      errors: [
        { pointer: "/contacts/0/alertDelay", value: 1441, reason: "out_of_range", minimum: 0, maximum: 1440 },
      ],
    });
  });

  it("checks each member by the contact kind's rules, as POST /contact does", async () => {
    const acct = await sb.account();
    const longUrl = `https://hooks.example.com/${"a".repeat(400)}`;
    for (const [member, value] of [
      ["language", "!!bad!!"],
      ["name", "n".repeat(256)],
    ] as const) {
      const inline = await acct.post(
        "/monitor",
        httpMonitor({ contacts: [{ ...email("a", "lang@example.com"), [member]: value }] }),
        key(),
      );
      const direct = await acct.post("/contact", {
        type: "email",
        address: "lang@example.com",
        [member]: value,
      });
      const entries = (res: typeof inline) =>
        (refusal(res).errors as Array<Record<string, unknown>>).map(({ pointer, ...rest }) => ({
          pointer: String(pointer).replace("/contacts/0", ""),
          ...rest,
        }));
      expect(refusal(inline).status).toBe(422);
      expect(entries(inline)).toEqual(entries(direct));
      expect(entries(inline)).toEqual([expect.objectContaining({ pointer: `/${member}`, value })]);
    }
    // An http address longer than 255 characters is a good contact address (up to 1024).
    const hook = await acct.post(
      "/monitor",
      httpMonitor({ contacts: [{ ref: "h", type: "http", address: longUrl }] }),
      key(),
    );
    expect(hook.status, hook.text).toBe(201);
  });

  it("refuses more contacts than limits.maxInlineContacts", async () => {
    const acct = await sb.account();
    const max = (await acct.get("/account")).body.limits.maxInlineContacts;
    const contacts = Array.from({ length: max + 1 }, (_, i) => email(`c${i}`, `c${i}@example.com`));
    const res = await acct.post("/monitor", httpMonitor({ contacts }), key());
    expect(refusal(res)).toEqual({
      status: 422,
      code: "too_many_items",
      errors: [{ pointer: "/contacts", value: max + 1, maximum: max }],
    });
    const ok = await acct.post("/monitor", httpMonitor({ contacts: contacts.slice(0, max) }), key());
    expect(ok.status, ok.text).toBe(201);
  });

  it("refuses a report to an sms contact", async () => {
    const acct = await sb.account();
    const res = await acct.post(
      "/monitor",
      httpMonitor({
        contacts: [{ ref: "s", type: "sms", address: "+14155550100" }],
        reportSubscriptions: [{ contactRefs: ["s"], frequency: "weekly" }],
      }),
      key(),
    );
    const out = refusal(res);
    expect(out).toMatchObject({ status: 422, code: "unsupported_report_channel" });
    expect(out.errors).toEqual([
      expect.objectContaining({ pointer: "/reportSubscriptions/0", reason: "not_email", allowed: ["email"] }),
    ]);
  });

  it("answers the plan's refusals: a report frequency or a contact channel it lacks", async () => {
    const trial = await sb.account({ plan: "trial" });
    const daily = await trial.post(
      "/monitor",
      httpMonitor({
        contacts: [email("a", "daily@example.com")],
        reportSubscriptions: [{ contactRefs: ["a"], frequency: "daily" }],
      }),
      key(),
    );
    expect(refusal(daily)).toMatchObject({
      status: 403,
      code: "package_limit",
      feature: "reportFrequencies",
    });
    const voice = await trial.post(
      "/monitor",
      httpMonitor({ contacts: [{ ref: "v", type: "voiceCall", address: "+14155550101" }] }),
      key(),
    );
    expect(refusal(voice)).toMatchObject({ status: 403, code: "package_limit", feature: "voiceContacts" });
    expect(await contactsOf(trial)).toEqual([]);
  });

  it("a failure anywhere creates nothing: no monitor, no contact, no code sent", async () => {
    const acct = await sb.account();
    const contacts = [
      email("a", "nothing@example.com"),
      { ref: "h", type: "http", address: "https://n.example.com/" },
    ];
    for (const body of [
      httpMonitor({ url: "ftp://nowhere.example.com/", contacts }),
      httpMonitor({ contacts, alertSubscriptions: [{ contactRefs: ["zz"], alertTypes: ["down"] }] }),
      httpMonitor({ contacts, reportSubscriptions: [{ contactRefs: ["h"], frequency: "weekly" }] }),
      httpMonitor({ contacts, interval: 45 }),
    ]) {
      const res = await acct.post("/monitor", body, key());
      expect(res.status).toBe(422);
    }
    expect((await acct.get("/monitor")).body.data).toEqual([]);
    expect(await contactsOf(acct)).toEqual([]);
    expect(await outboxFor(acct)).toEqual([]);
  });
});
