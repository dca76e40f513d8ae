import { describe, expect, it } from "vitest";
import {
  camelCase,
  expression,
  memberName,
  render,
  stringLiteral,
  uniqueIdentifiers,
} from "../../../src/engine/export/ts-text.ts";

describe("TypeScript text of the program formats", () => {
  it("spells names as identifiers: camel case, a leading digit guarded", () => {
    expect(camelCase("checkout-api-eu")).toBe("checkoutApiEu");
    expect(camelCase("monitors_http_full_settings_password")).toBe("monitorsHttpFullSettingsPassword");
    expect(camelCase("15558331340")).toBe("_15558331340");
    expect(camelCase("--")).toBe("_");
  });

  it("makes identifiers unique: the qualifier first, then a number; reserved words never", () => {
    const items = [
      { name: "api-team", kind: "Contact" },
      { name: "api-team", kind: "ContactGroup" },
      { name: "api_team", kind: "ContactGroup" },
      { name: "delete", kind: "Monitor" },
      { name: "config", kind: "Monitor" },
    ];
    const names = uniqueIdentifiers(
      items,
      (i) => camelCase(i.name),
      (i) => i.kind,
      new Set(["config"]),
    );
    expect([...names.values()]).toEqual([
      "apiTeam",
      "apiTeamContactGroup",
      "apiTeamContactGroup2",
      "deleteMonitor",
      "configMonitor",
    ]);
  });

  it("quotes what is not an identifier, and escapes strings as JSON does", () => {
    expect(memberName("contactId")).toBe("contactId");
    expect(memberName("X-Team")).toBe('"X-Team"');
    // Bare or quoted, it would set the object's prototype: a map key of that name stays a key.
    expect(memberName("__proto__")).toBe('["__proto__"]');
    const literal = new Function(`return { ${memberName("__proto__")}: 1 };`)() as object;
    expect(Object.keys(literal)).toEqual(["__proto__"]);
    expect(stringLiteral('a "b" ${c} `d`\n')).toBe('"a \\"b\\" ${c} `d`\\n"');
  });

  it("renders objects a member a line, short scalar arrays inline, long ones and objects a line each", () => {
    const text = render({
      kind: "object",
      entries: [
        { name: "from", value: expression("1893895200"), comment: "2030-01-06T02:00:00Z" },
        { name: "tags", value: { kind: "array", items: [expression('"a"'), expression('"b"')] } },
        {
          name: "long",
          value: {
            kind: "array",
            items: Array.from({ length: 12 }, (_, i) => expression(`"item-${i}-xxxx"`)),
          },
        },
        { name: "items", value: { kind: "array", items: [{ kind: "object", entries: [] }] } },
      ],
    });
    expect(text).toBe(
      [
        "{",
        "  from: 1893895200, // 2030-01-06T02:00:00Z",
        '  tags: ["a", "b"],',
        "  long: [",
        ...Array.from({ length: 12 }, (_, i) => `    "item-${i}-xxxx",`),
        "  ],",
        "  items: [",
        "    {},",
        "  ],",
        "}",
      ].join("\n"),
    );
  });
});
