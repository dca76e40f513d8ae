import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  bodySchema,
  contactSchema,
  defaultsOf,
  field,
  httpSettings,
  maintenanceSchema,
  membersOf,
  monitorSchema,
  set,
  traitsOf,
  unixTime,
  webhookSchema,
  writeOnlyMembers,
} from "../../src/kinds/index.ts";

describe("field traits", () => {
  it("keeps each field's traits apart even when fields share a schema", () => {
    const a = field(unixTime, { readOnly: true });
    const b = field(unixTime, { description: "b" });
    // Each clone inherits the shared schema's own traits, and adds its own to itself only.
    expect(traitsOf(a)).toEqual({ timestamp: true, readOnly: true });
    expect(traitsOf(b)).toEqual({ timestamp: true, description: "b" });
    expect(traitsOf(unixTime)).toEqual({ timestamp: true });
    expect(traitsOf(maintenanceSchema.shape.from).readOnly).toBeUndefined();
    expect(traitsOf(monitorSchema.shape.created).readOnly).toBe(true);
  });

  it("survives checks that clone the schema, and wrappers", () => {
    const tags = field(set(z.string()).max(4), { description: "tags" });
    expect(traitsOf(tags)).toEqual({ collection: "set", description: "tags" });
    expect(traitsOf(tags.optional().nullable())).toEqual({ collection: "set", description: "tags" });
  });

  it("declares sets, credentials, caps and defaults on monitor settings", () => {
    expect(traitsOf(httpSettings.shape.dns).collection).toBe("set");
    expect(traitsOf(httpSettings.shape.headers).collection).toBe("list");
    expect(writeOnlyMembers(httpSettings)).toEqual(["password"]);
    expect(traitsOf(httpSettings.shape.maxSize)).toMatchObject({ default: 1048576, storedCap: 10485760 });
    expect(defaultsOf(httpSettings)).toMatchObject({
      method: "G",
      timeout: 40000,
      followRedirect: true,
      keywordMode: "PresentAny",
    });
    expect(traitsOf(webhookSchema.shape.secret).writeOnly).toBe(true);
    expect(traitsOf(monitorSchema.shape.type).immutable).toBe(true);
  });

  it("lists members with their traits, the same array each time", () => {
    const members = membersOf(contactSchema);
    expect(members.find((m) => m.name === "confirmed")?.traits.readOnly).toBe(true);
    expect(membersOf(contactSchema)).toBe(members);
  });
});

describe("bodySchema", () => {
  it("drops read-only members from both bodies, update-only from create, create-only from update", () => {
    const create = Object.keys(bodySchema(monitorSchema, "create").shape);
    const update = Object.keys(bodySchema(monitorSchema, "update").shape);
    for (const readOnly of ["id", "state", "since", "created", "updated", "effectiveUrl"]) {
      expect(create).not.toContain(readOnly);
      expect(update).not.toContain(readOnly);
    }
    expect(create).toContain("contacts");
    expect(create).not.toContain("addTags");
    expect(update).toContain("addTags");
    expect(update).not.toContain("contacts");
    expect(bodySchema(monitorSchema, "create")).toBe(bodySchema(monitorSchema, "create"));
  });

  it("refuses a read-only member as unknown", () => {
    const result = bodySchema(contactSchema, "create").safeParse({
      type: "email",
      address: "a@b.c",
      confirmed: true,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: "unrecognized_keys", keys: ["confirmed"] });
  });
});
