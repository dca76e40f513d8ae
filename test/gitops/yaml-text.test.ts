import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Document, parse } from "yaml";
import { yamlText } from "../../src/gitops/yaml-text.ts";

/** JSON-like data: what an export writes. */
const data = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ unit: "grapheme" }),
    fc.string({ unit: "binary" }),
    fc.constantFrom(
      "yes",
      "No",
      "null",
      "~",
      "true",
      "1e3",
      "0x1f",
      "0o17",
      ".inf",
      "-.5",
      "12:30",
      "2030-01-06",
      "---",
      "a: b",
      "a #b",
      "- x",
      `${"$"}{env:X}`,
      "",
      " pad",
      "end:",
      "#",
    ),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie("value"), { maxKeys: 4 }),
  ),
  map: fc.dictionary(fc.string({ unit: "binary" }), tie("value"), { maxKeys: 5 }),
})).map;

describe("yamlText", () => {
  it("reads back as the same data, whatever the strings hold", () => {
    fc.assert(
      fc.property(data, (value) => {
        // -0 reads back as 0: JSON has no -0 either.
        expect(parse(yamlText(value as Record<string, unknown>))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 2000 },
    );
  });

  // Where the library would write a YAML 1.1 boolean (`y`, `yes`) plain, this quotes it.
  it("lays plain data out as the yaml library does", () => {
    const value = {
      monitors: {
        "checkout-api": {
          type: "http",
          url: "https://shop.example.com/health",
          interval: 60,
          tags: ["shop", "prod"],
          locations: { pools: ["westeurope"], excludedAgents: [] },
          settings: {
            password: `${"$"}{env:VIGIL_X}`,
            headers: [{ name: "X-Env", value: "prod" }],
            nested: [[1, 2], []],
          },
          alerts: [{ contact: "sre", alertTypes: ["down", "up"] }],
          empty: {},
          none: null,
          enabled: true,
        },
      },
    };
    expect(yamlText(value)).toBe(new Document(value).toString({ lineWidth: 0 }));
  });
});
