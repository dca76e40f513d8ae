import { describe, expect, it } from "vitest";
import { providerSchemaToProto, schemaToProto } from "../../../src/terraform/plugin/schema-proto.ts";
import { providerAddress, providerSchema } from "../../../src/terraform/schema.ts";

describe("schemaToProto: terraform's schema JSON to tfplugin6.Schema", () => {
  const schema = schemaToProto({
    version: 2,
    block: {
      description: "A thing.",
      attributes: {
        id: { type: "string", computed: true, description: "Its id." },
        tags: { type: ["set", "string"], optional: true },
        secret: { type: "string", required: true, sensitive: true, description_kind: "markdown" },
        window: {
          nested_type: {
            nesting_mode: "list",
            attributes: { start: { type: "number", optional: true, computed: true } },
          },
          optional: true,
        },
      },
      block_types: {
        timeouts: {
          nesting_mode: "single",
          block: { attributes: { create: { type: "string", optional: true } } },
        },
      },
    },
  });
  const byName = Object.fromEntries(schema.block.attributes!.map((a) => [a.name, a]));

  it("keeps the version and the description, plain unless marked markdown", () => {
    expect(schema.version).toBe(2);
    expect(schema.block).toMatchObject({ version: 2, description: "A thing.", description_kind: "PLAIN" });
    expect(byName.secret!.description_kind).toBe("MARKDOWN");
  });

  it("carries each type expression as its JSON bytes", () => {
    expect(Buffer.from(byName.id!.type!).toString()).toBe('"string"');
    expect(Buffer.from(byName.tags!.type!).toString()).toBe('["set","string"]');
  });

  it("keeps the flags", () => {
    expect(byName.id).toMatchObject({ computed: true, optional: false, required: false, sensitive: false });
    expect(byName.secret).toMatchObject({ required: true, sensitive: true });
  });

  it("turns nested_type into an Object with its nesting and no type", () => {
    expect(byName.window!.type).toBeUndefined();
    expect(byName.window!.nested_type).toMatchObject({
      nesting: "LIST",
      attributes: [{ name: "start", optional: true, computed: true }],
    });
  });

  it("turns block_types into nested blocks", () => {
    expect(schema.block.block_types).toMatchObject([
      { type_name: "timeouts", nesting: "SINGLE", block: { attributes: [{ name: "create" }] } },
    ]);
  });

  it("refuses an attribute with neither type nor nested_type", () => {
    expect(() => schemaToProto({ version: 0, block: { attributes: { broken: {} } } })).toThrow(/broken/);
  });

  it("converts the whole vigil provider schema", () => {
    const response = providerSchemaToProto(providerSchema().provider_schemas[providerAddress]!);
    expect(Object.keys(response.resource_schemas!)).toContain("vigil_webhook");
    expect(Object.keys(response.data_source_schemas!)).toContain("vigil_monitor_types");
    expect(response.provider!.block.attributes!.map((a) => a.name)).toEqual(
      expect.arrayContaining(["endpoint", "token"]),
    );
  });
});
