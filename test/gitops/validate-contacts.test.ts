/**
 * Contact rules live on the contact kind (`contactMemberRefusals`): `vigil validate` and the engine refuse
 * exactly the contacts the sandbox refuses, with the same code at the same pointers, and accept the ones
 * it accepts.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KindName } from "../../src/engine/model.ts";
import { validateDesired } from "../../src/engine/validate.ts";
import { vigil, workspace } from "../cli/vigil.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
let account: Client;
beforeAll(async () => {
  sb = await startTestSandbox();
  // Business offers sms and voice contacts, so only the members' rules can refuse these.
  account = await sb.account({ plan: "business" });
});
afterAll(() => sb.close());

const template = [{ event: "down", content: "[[monitorName]] is down" }];

/** Contacts by name: the ones refused first, then some the rules must let through. */
const cases: Record<string, Record<string, unknown>> = {
  "email-address": { type: "email", address: "not-an-email" },
  "sms-address": { type: "sms", address: "0415 555 0100" },
  "voice-address": { type: "voiceCall", address: "+1" },
  "http-address": { type: "http", address: "ftp://hooks.example.com/x" },
  "webpush-address": { type: "webPush", address: "push.example.com" },
  "email-http-members": {
    type: "email",
    address: "ops@example.com",
    httpHeaders: [{ header: "X-Token", value: "t" }],
    groupedAlerts: true,
  },
  "sms-mime-type": { type: "sms", address: "+14155550100", mimeType: "text/plain" },
  "http-needs-template": { type: "http", address: "https://hooks.example.com/a", mimeType: "text/html" },
  "delay-above": { type: "email", address: "late@example.com", alertDelay: 1441 },
  "delay-below": { type: "email", address: "early@example.com", alertDelay: -1 },
  "delay-and-address": { type: "email", address: "nope", alertDelay: 5000 },
  "ok-email": { type: "email", address: "ok@example.com", alertDelay: 1440 },
  "ok-sms": { type: "sms", address: "+14155550100", alertDelay: 0 },
  "ok-http-template": {
    type: "http",
    address: "https://hooks.example.com/b",
    mimeType: "text/html",
    templates: template,
    httpHeaders: [{ header: "Authorization", value: "Bearer x" }],
    groupedAlerts: true,
  },
  "ok-webpush": { type: "webPush", address: "https://push.example.com/sub/1" },
};

type Verdict = { code: string; pointers: string[] } | "accepted";

/** What the sandbox answers a create of the contact (or of the monitor carrying inline contacts). */
async function sandboxVerdict(members: Record<string, unknown>, path = "/contact"): Promise<Verdict> {
  const res = await account.post(path, members, { headers: { "idempotency-key": randomUUID() } });
  if (res.status === 201) return "accepted";
  const errors = (res.body.errors ?? []) as { pointer: string }[];
  return { code: res.body.code, pointers: errors.map((e) => e.pointer).sort() };
}

/** What the engine's validation (the one `vigil validate` runs) says of the same contact. */
function engineVerdict(name: string, members: Record<string, unknown>, kind: KindName = "contact"): Verdict {
  const diagnostics = validateDesired([{ address: `${kind}s.${name}`, kind, members }]);
  if (diagnostics.length === 0) return "accepted";
  const codes = [...new Set(diagnostics.map((d) => d.code))];
  // The API answers one code at a time: a code of its own (invalid_alert_delay) before validation_failed.
  const code = codes.find((c) => c !== "validation_failed") ?? codes[0]!;
  return {
    code: code ?? "none",
    pointers: diagnostics
      .filter((d) => d.code === code)
      .map((d) => d.pointer)
      .sort(),
  };
}

describe("a contact the sandbox refuses, the engine refuses alike", () => {
  it.each(Object.entries(cases))("%s", async (name, members) => {
    const served = await sandboxVerdict(members);
    expect(engineVerdict(name, members)).toEqual(served);
    // The table means something only if it holds both outcomes.
    expect(served === "accepted").toBe(name.startsWith("ok-"));
  });
});

/** A monitor's inline contacts are contacts too: the same rules, at `/contacts/<i>`. */
const inline: Record<string, Record<string, unknown>[]> = {
  "inline-address": [
    { ref: "ops", type: "email", address: "ops@example.com" },
    { ref: "pager", type: "sms", address: "555-0100" },
  ],
  "inline-delay": [{ ref: "late", type: "email", address: "late@example.com", alertDelay: 1500 }],
  "ok-inline": [{ ref: "ok", type: "email", address: "inline@example.com", alertDelay: 30 }],
};

describe("a monitor's inline contact the sandbox refuses, the engine refuses alike", () => {
  it.each(Object.entries(inline))("%s", async (name, contacts) => {
    const members = {
      type: "http",
      url: `https://${name}.example.com/`,
      locations: { pools: ["allworld"] },
      contacts,
    };
    const served = await sandboxVerdict(members, "/monitor");
    expect(engineVerdict(name, members, "monitor")).toEqual(served);
    expect(served === "accepted").toBe(name.startsWith("ok-"));
  });
});

it("vigil validate names each refused contact's code at its file:line:column", async () => {
  const yaml = [
    "contacts:",
    ...Object.entries(cases).flatMap(([name, members]) => [
      `  ${name}:`,
      ...Object.entries(members).map(([member, value]) => `    ${member}: ${JSON.stringify(value)}`),
    ]),
  ].join("\n");
  const dir = await workspace({ "vigil.yaml": `${yaml}\n` });
  const run = await vigil(["validate"], { cwd: dir });
  expect(run.code, run.stderr).not.toBe(0);
  const lines = yaml.split("\n");
  const lineOf = (name: string, member: string) =>
    lines.findIndex((l, i) => l.startsWith(`    ${member}:`) && lines.slice(0, i).includes(`  ${name}:`)) + 1;
  expect(run.stderr).toContain(
    `vigil.yaml:${lineOf("email-address", "address")}:14: contacts.email-address address: 422 validation_failed: must be an email address`,
  );
  expect(run.stderr).toContain(
    `vigil.yaml:${lineOf("delay-above", "alertDelay")}:17: contacts.delay-above alertDelay: 422 invalid_alert_delay: alertDelay is 0 to 1440 minutes`,
  );
  expect(run.stderr).toContain(
    `contacts.http-needs-template mimeType: 422 validation_failed: text/html needs a custom template; allowed: application/json, application/x-www-form-urlencoded, text/xml`,
  );
  for (const name of Object.keys(cases)) {
    if (name.startsWith("ok-")) expect(run.stderr).not.toContain(`contacts.${name} `);
    else expect(run.stderr).toContain(`contacts.${name} `);
  }
}, 60_000);
