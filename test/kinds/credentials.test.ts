import { describe, expect, it } from "vitest";
import {
  bodySchema,
  contactSchema,
  credentialPatterns,
  credentialPointers,
  httpSettings,
  isMaskedCredential,
  issuesToEntries,
  webhookSchema,
} from "../../src/kinds/index.ts";

describe("credentials, from the writeOnly trait", () => {
  it("finds every credential a schema can hold, at any depth", () => {
    expect(credentialPatterns(webhookSchema)).toEqual([["headers", "*", "value"], ["secret"]]);
    expect(credentialPatterns(contactSchema)).toEqual([["httpHeaders", "*", "value"]]);
    expect(credentialPatterns(httpSettings)).toEqual([["password"], ["headers", "*", "value"]]);
  });

  it("points at credentials set to a value or read back masked, not at actions or nulls", () => {
    expect(
      credentialPointers(webhookSchema, {
        url: "https://example.com",
        secret: "whsec_abcdefghijklmnop",
        headers: [
          { header: "Authorization", value: "Bearer x" },
          { header: "X-Two", value: "two" },
        ],
      }),
    ).toEqual(["/headers/0/value", "/headers/1/value", "/secret"]);
    expect(credentialPointers(webhookSchema, { secret: { rotate: true } })).toEqual([]);
    expect(
      // A live row, as the service reads it back.
      credentialPointers(webhookSchema, {
        secret: { set: true, updatedAt: 1, previousValidUntil: null },
        headers: [{ header: "A", value: { set: true } }],
      }),
    ).toEqual(["/headers/0/value", "/secret"]);
    expect(credentialPointers(httpSettings, { password: null, username: "u" })).toEqual([]);
  });

  it("a member named __proto__ is only a name: it never reaches a credential through the prototype", () => {
    const value = JSON.parse('{"__proto__": {"secret": "x"}, "headers": []}');
    expect(credentialPointers(webhookSchema, value)).toEqual([]);
  });
});

describe("isMaskedCredential: the one check of a credential read back masked", () => {
  it("knows every form the API reads back: with or without updatedAt, with what else it adds", () => {
    for (const masked of [
      { set: true },
      { set: true, updatedAt: 1700000000 },
      { set: true, updatedAt: 1, previousValidUntil: null },
    ])
      expect(isMaskedCredential(masked), JSON.stringify(masked)).toBe(true);
  });

  it("is no value, action or malformed mask", () => {
    for (const value of [
      "whsec_abcdefghijklmnop",
      null,
      undefined,
      true,
      [{ set: true }],
      { set: "true" },
      { set: false, updatedAt: 1 },
      { rotate: true },
      { set: true, updatedAt: "yesterday" },
      { set: true, updatedAt: -1 },
    ])
      expect(isMaskedCredential(value), JSON.stringify(value)).toBe(false);
  });

  it("reads only own members: a `set` reached through __proto__ masks nothing", () => {
    expect(isMaskedCredential(JSON.parse('{"__proto__": {"set": true}}'))).toBe(false);
    expect(isMaskedCredential(Object.create({ set: true }))).toBe(false);
  });
});

describe("header names and values", () => {
  const create = bodySchema(contactSchema, "create");
  const entries = (body: unknown) => {
    const result = create.safeParse(body);
    return result.success ? [] : issuesToEntries(result.error.issues, body, create);
  };

  it("refuses CR, LF and NUL in values and anything but a token in names, each at its pointer", () => {
    for (const value of ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\0b"]) {
      expect(entries({ httpHeaders: [{ header: "X-Token", value }] })).toMatchObject([
        {
          pointer: "/httpHeaders/0/value",
          reason: "invalid_format",
          message: "must not contain CR, LF or NUL",
        },
      ]);
    }
    for (const header of ["X-Token\r\nX-Injected", "X Token", "X-Token:", ""]) {
      const [entry] = entries({ httpHeaders: [{ header, value: "v" }] });
      expect(entry).toMatchObject({ pointer: "/httpHeaders/0/header" });
    }
    expect(entries({ httpHeaders: [{ header: "X-Token_1.a", value: "Bearer abc; q=1\t" }] })).toEqual([]);
  });

  it("refuses them in webhook headers and monitor request headers too", () => {
    const webhook = bodySchema(webhookSchema, "create").safeParse({
      headers: [{ header: "X-A", value: "1\r\n2" }],
    });
    expect(webhook.error?.issues.map((i) => i.path)).toEqual([["headers", 0, "value"]]);
    const monitor = httpSettings.safeParse({ headers: [{ name: "X-A\n", value: "1" }] });
    expect(monitor.error?.issues.map((i) => i.path)).toEqual([["headers", 0, "name"]]);
  });
});
