import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FleetFileError, fleetJsonSchema, readFleetFile } from "../../src/fleet/fleet-file.ts";

async function fleetFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vigil-fleet-file-"));
  const file = join(dir, "fleet.yaml");
  await writeFile(file, text);
  return file;
}

async function problems(text: string): Promise<string[]> {
  const file = await fleetFile(text);
  try {
    await readFleetFile(file);
  } catch (error) {
    if (!(error instanceof FleetFileError)) throw error;
    return error.diagnostics.map(
      (d) => `${d.at ? `${d.at.line}:${d.at.column}` : "-"} ${d.path ?? ""}: ${d.message}`,
    );
  }
  return [];
}

describe("the fleet file", () => {
  it("reads accounts: endpoint, token variable, paths relative to the file, watch as a schedule", async () => {
    const file = await fleetFile(
      [
        "accounts:",
        "  acme:",
        `    endpoint: "\${env:ACME_ENDPOINT}"`,
        `    token: "\${env:ACME_TOKEN}"`,
        "    paths: [accounts/acme]",
        "    watch: { every: 5m, heal: true }",
        "  globex:",
        "    endpoint: https://api.example.com/v2",
        `    token: "\${env:GLOBEX_TOKEN}"`,
        "    paths: [accounts/globex, shared]",
        "",
      ].join("\n"),
    );
    const fleet = await readFleetFile(file);
    const dir = join(file, "..");
    expect(fleet.accounts).toEqual([
      {
        name: "acme",
        endpoint: { env: "ACME_ENDPOINT" },
        token: { env: "ACME_TOKEN" },
        paths: [join(dir, "accounts/acme")],
        watch: { cron: "*/5 * * * *", everyMs: 300_000, heal: true },
      },
      {
        name: "globex",
        endpoint: { value: "https://api.example.com/v2" },
        token: { env: "GLOBEX_TOKEN" },
        paths: [join(dir, "accounts/globex"), join(dir, "shared")],
      },
    ]);
  });

  it("says every problem at its line and column, and what is allowed", async () => {
    const found = await problems(
      [
        "accounts:",
        "  acme:",
        "    token: vk_live_secret123",
        "    paths: [../elsewhere]",
        "    colour: red",
        "    watch: { every: 7m }",
        "  bad/name:",
        `    token: "\${env:T}"`,
        "    paths: [x]",
        "  globex:",
        "    paths: []",
        "",
      ].join("\n"),
    );
    expect(found.join("\n")).not.toContain("vk_live_secret123");
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^5:5 accounts\.acme\.colour: unknown member "colour"; allowed: endpoint, token, paths, watch$/,
        ),
        expect.stringMatching(/^7:3 .*"bad\/name" is not an account name/),
        expect.stringMatching(/^10:3 accounts\.globex: token is required/),
        expect.stringMatching(/^11:12 accounts\.globex\.paths: must list at least one path$/),
      ]),
    );
    // The shape is sound once those are fixed; then the meaning is judged.
    const meaning = await problems(
      [
        "accounts:",
        "  acme:",
        "    token: vk_live_secret123",
        "    endpoint: ftp://x",
        "    paths: [../elsewhere]",
        "    watch: { every: 7m }",
        "",
      ].join("\n"),
    );
    expect(meaning.join("\n")).not.toContain("vk_live_secret123");
    expect(meaning).toEqual([
      expect.stringMatching(/^3:12 accounts\.acme\.token: the token must be \$\{env:NAME\}/),
      expect.stringMatching(
        /^4:15 accounts\.acme\.endpoint: the endpoint must be an http\(s\) URL or \$\{env:NAME\}, not "ftp:\/\/x"$/,
      ),
      expect.stringMatching(
        /^5:13 accounts\.acme\.paths\[0\]: "\.\.\/elsewhere" leads outside the fleet file's directory/,
      ),
      expect.stringMatching(/^6:21 accounts\.acme\.watch\.every: .*does not divide an hour or a day evenly/),
    ]);
  });

  it("judges __proto__ as a name like any other: refused with its reason, and nothing else changes", async () => {
    const found = await problems(
      `accounts:\n  __proto__:\n    token: "\${env:T}"\n    paths: [x]\n  ok:\n    token: "\${env:T}"\n    paths: [x]\n`,
    );
    expect(found).toEqual([
      expect.stringMatching(/^2:3 accounts\.__proto__: "__proto__" is not an account name/),
    ]);
    expect(({} as Record<string, unknown>).token).toBeUndefined();
  });

  it("refuses a fleet with no accounts, and a file that is not YAML, at their place", async () => {
    expect(await problems("accounts: {}\n")).toEqual([
      expect.stringMatching(/accounts: the fleet has no accounts/),
    ]);
    expect(await problems("accounts: [\n")).toEqual([expect.stringMatching(/^\d+:\d+ /)]);
  });

  it("has a JSON Schema that names its members", () => {
    const schema = fleetJsonSchema() as {
      $id: string;
      properties: { accounts: { additionalProperties: { required: string[] } } };
    };
    expect(schema.$id).toBe("https://vigil.dev/schemas/vigil-fleet.schema.json");
    expect(schema.properties.accounts.additionalProperties.required).toEqual(["token", "paths"]);
  });
});
