import { describe, expect, it } from "vitest";
import { assignments, block, expression, quoted } from "../../src/terraform/export/hcl-text.ts";

describe("HCL text as terraform fmt writes it", () => {
  it("quotes strings so that nothing in them reads as a template or breaks the literal", () => {
    expect(quoted('say "hi"\\n')).toBe('"say \\"hi\\"\\\\n"');
    expect(quoted("a\nb\tc\r\u0001")).toBe('"a\\nb\\tc\\r\\u0001"');
    expect(quoted(`{"user":"\${USER}", "if":"%{if x}"}`)).toBe(
      '"{\\"user\\":\\"$${USER}\\", \\"if\\":\\"%%{if x}\\"}"',
    );
    expect(quoted("Zürich ✓")).toBe('"Zürich ✓"');
  });

  it("aligns the = of consecutive one-line attributes, and their comments; other lines end a run", () => {
    expect(
      block('resource "vigil_maintenance" "w"', [
        { name: "name", value: expression('"Weekly"') },
        { name: "from", value: expression("1893895200"), comment: "2030-01-06T02:00:00Z" },
        { name: "to", value: expression("1893902400"), comment: "2030-01-06T04:00:00Z" },
        {
          name: "locations",
          value: { kind: "object", entries: [{ name: "pools", value: expression('["allworld"]') }] },
        },
        { name: "show_on_status_page", value: expression("true") },
        {
          name: "headers",
          value: {
            kind: "list",
            items: [
              {
                kind: "object",
                entries: [
                  { name: "name", value: expression('"X-Env"') },
                  { name: "value", value: expression("var.x") },
                ],
              },
            ],
          },
        },
        { name: "settings", value: { kind: "object", entries: [] } },
      ]),
    ).toBe(
      [
        'resource "vigil_maintenance" "w" {',
        '  name = "Weekly"',
        "  from = 1893895200 # 2030-01-06T02:00:00Z",
        "  to   = 1893902400 # 2030-01-06T04:00:00Z",
        "  locations = {",
        '    pools = ["allworld"]',
        "  }",
        "  show_on_status_page = true",
        "  headers = [",
        "    {",
        '      name  = "X-Env"',
        "      value = var.x",
        "    },",
        "  ]",
        "  settings = {}",
        "}",
        "",
      ].join("\n"),
    );
    expect(block('provider "vigil"', [])).toBe('provider "vigil" {}\n');
    expect(
      assignments([
        { name: "a", value: expression('""') },
        { name: "long_name", value: expression('""') },
      ]),
    ).toBe('a         = ""\nlong_name = ""\n');
  });
});
