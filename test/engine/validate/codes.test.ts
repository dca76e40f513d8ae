import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type DesiredResource,
  type Diagnostic,
  diagnosticCodes,
  judgeWrites,
  validateDesired,
} from "../../../src/engine/index.ts";
import { loadConfig } from "../../../src/gitops/load.ts";
import { type AccountView, problemCodes } from "../../../src/kinds/index.ts";

/**
 * Every diagnostic the engine emits carries a code and its data, so that frontends decide on them and
 * never on the words: the engine's own codes, a member's `errors[]` reason, or the API's problem code.
 */
const engineCodes: ReadonlySet<string> = new Set(Object.values(diagnosticCodes));

function expectCoded(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    expect(d.code, d.message).toMatch(/^[a-z][a-z_]*$/);
    expect(typeof d.data, d.message).toBe("object");
    // A predicted refusal's code is the API's, with its status; a member problem's is its entry's reason.
    if (d.status !== undefined) {
      expect(Object.hasOwn(problemCodes, d.code), d.code).toBe(true);
      expect(d.status).toBe(problemCodes[d.code as keyof typeof problemCodes].status);
    } else if (d.entry) expect(d.code).toBe(d.entry.reason ?? "invalid");
  }
}

const ref = (address: string) => ({ $ref: address });
const http = { type: "http", url: "https://web.example.com/", locations: { pools: ["allworld"] } };
const resource = (address: string, kind: DesiredResource["kind"], members: Record<string, unknown>) => ({
  address,
  kind,
  members,
});

describe("validateDesired", () => {
  it("gives each problem of a configuration its code and data", () => {
    const diagnostics = validateDesired([
      resource("monitors.web", "monitor", http),
      resource("monitors.web", "monitor", http),
      resource("contacts.x/y", "contact", { type: "email", address: "a@example.com" }),
      resource("contactGroups.sre", "contactGroup", {
        name: "SRE",
        members: [{ contactId: ref("contacts.missing"), events: ["down"] }],
      }),
      resource("contacts.back", "contact", {
        type: "email",
        address: "b@example.com",
        name: ref("monitors.web"),
      }),
      resource("contacts.none", "contact", { type: "email" }),
      resource("monitors.ping", "monitor", { type: "ping" }),
      resource("monitors.domain", "monitor", {
        type: "domainExp",
        url: "example.com",
        locations: { pools: ["allworld"] },
      }),
      {
        ...resource("monitors.life", "monitor", http),
        lifecycle: { ignoreChanges: ["/id"], replaceOnChanges: [""] },
      },
      resource("monitors.bad", "monitor", { ...http, interval: -5, tpe: 1, enabled: "yes" }),
      resource("monitors.count", "monitor", { ...http, type: "cntCheck" }),
      resource("webhooks.a", "webhook", {
        url: "https://h.example.com/",
        events: ["monitor.down"],
        scope: { all: true },
      }),
      resource("webhooks.b", "webhook", {
        url: "https://h.example.com/",
        events: ["monitor.down"],
        scope: { all: true },
      }),
    ]);
    expectCoded(diagnostics);
    const facts = diagnostics.map((d) => ({
      address: d.address,
      pointer: d.pointer,
      code: d.code,
      data: d.data,
    }));
    expect(facts).toEqual(
      expect.arrayContaining([
        { address: "monitors.web", pointer: "", code: "duplicate_address", data: {} },
        {
          address: "contacts.x/y",
          pointer: "",
          code: "address_form",
          data: { kind: "contact", forms: ["contacts.<name>"] },
        },
        {
          address: "contactGroups.sre",
          pointer: "",
          code: "unknown_reference",
          data: { target: "contacts.missing" },
        },
        {
          address: "contacts.back",
          pointer: "",
          code: "reference_order",
          data: { target: "monitors.web", targetKind: "monitor" },
        },
        { address: "contacts.none", pointer: "/address", code: "required", data: { member: "address" } },
        {
          address: "monitors.ping",
          pointer: "/url",
          code: "required_by_variant",
          data: { member: "url", variant: "ping" },
        },
        {
          address: "monitors.ping",
          pointer: "/locations/pools",
          code: "validation_failed",
          data: { reason: "required" },
        },
        {
          address: "monitors.domain",
          pointer: "/locations",
          code: "validation_failed",
          data: { reason: "not_allowed" },
        },
        {
          address: "monitors.life",
          pointer: "",
          code: "lifecycle_path",
          data: { option: "ignoreChanges", path: "/id" },
        },
        {
          address: "monitors.life",
          pointer: "",
          code: "lifecycle_path",
          data: { option: "replaceOnChanges", path: "" },
        },
        expect.objectContaining({
          address: "monitors.bad",
          pointer: "/tpe",
          code: "unknown_member",
          data: expect.objectContaining({ didYouMean: "type" }),
        }),
        {
          address: "monitors.bad",
          pointer: "/enabled",
          code: "wrong_type",
          data: { value: "yes", expected: "boolean" },
        },
        {
          address: "monitors.count",
          pointer: "/settings/keyword",
          code: "invalid_settings",
          data: { reason: "required" },
        },
        {
          address: "webhooks.b",
          pointer: "/url",
          code: "duplicate_resource",
          data: { value: "https://h.example.com/" },
        },
      ]),
    );
  });

  it("gives a refusal it predicts offline the API's code, its status, and the entry's members as data", () => {
    const [interval] = validateDesired([resource("monitors.web", "monitor", { ...http, interval: -5 })]);
    expect(interval).toMatchObject({ code: "invalid_interval", status: 422, data: { value: -5 } });
  });

  it("keeps a credential's value out of the data as out of the words", () => {
    const diagnostics = validateDesired([
      resource("monitors.web", "monitor", { ...http, settings: { username: "u", password: 12345 } }),
    ]);
    expect(diagnostics.map((d) => [d.pointer, d.code])).toEqual([["/settings/password", "wrong_type"]]);
    expect(JSON.stringify(diagnostics)).not.toContain("12345");
  });
});

describe("judgeWrites", () => {
  it("gives each account refusal and quota the API's code, its status and data", () => {
    const view: AccountView = {
      intervals: [60, 300],
      maxInlineContacts: 1,
      features: { monitors: 1 },
      usage: { monitors: { used: 1, allowed: 1 } },
    };
    const contacts = [
      { ref: "a", type: "email", address: "a@example.com" },
      { ref: "b", type: "email", address: "b@example.com" },
    ];
    const writes = ["a", "b"].map((name) => ({
      resource: resource(`monitors.${name}`, "monitor", { ...http, contacts }) as DesiredResource,
      context: { creating: true },
    }));
    const { errors, warnings } = judgeWrites(view, writes, () => undefined);
    expectCoded([...errors, ...warnings]);
    expect(errors.map((d) => [d.address, d.pointer, d.code, d.status])).toEqual([
      ["monitors.a", "/contacts", "too_many_items", 422],
      ["monitors.b", "/contacts", "too_many_items", 422],
      ["monitors.a", "", "package_limit", 403],
      ["monitors.b", "", "package_limit", 403],
    ]);
    expect(errors[0]!.data).toEqual({ value: 2, limit: 1, allowed: ["at most 1"] });
    expect(errors[2]!.data).toEqual({
      feature: "monitors",
      limit: 1,
      allowed: ["0 more enabled monitors (the plan allows 1; 1 exist)"],
    });
  });
});

describe("every configuration of the corpora", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it("validates into coded diagnostics only", async () => {
    const roots = ["../../cli/corpus", "../../gitops/refused"].map((p) => resolve(import.meta.dirname, p));
    let seen = 0;
    for (const root of roots) {
      for (const entry of await readdir(root, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        const dir = await mkdtemp(join(tmpdir(), "vigil-codes-"));
        dirs.push(dir);
        for (const file of await readdir(join(root, entry.name)))
          if (/\.ya?ml$/.test(file))
            await writeFile(join(dir, file), await readFile(join(root, entry.name, file)));
        const config = await loadConfig([dir], { env: {} });
        const diagnostics = validateDesired(config.resources);
        expectCoded(diagnostics);
        seen += diagnostics.length;
      }
    }
    // The corpora are bad configurations: the sweep judged many diagnostics, not none.
    expect(seen).toBeGreaterThan(20);
  });

  it("names no code twice between the engine's own and the API's", () => {
    for (const code of engineCodes) {
      if (code === "required") continue; // a member's `errors[]` reason as well: the same meaning
      expect(Object.hasOwn(problemCodes, code), code).toBe(false);
    }
  });
});
