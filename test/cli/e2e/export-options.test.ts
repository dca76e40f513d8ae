import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { vigil, workspace } from "../vigil.ts";

let sb: TestSandbox;
let account: Client;
let connection: string[];
let shopId: string;
/** Where the commands run: their default state (.vigil/) stays out of the export directories. */
let home: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  home = await workspace();
  account = await sb.account({ plan: "business" });
  connection = ["--endpoint", sb.url, "--token", account.token];
  const monitor = async (name: string, tags: string[]) => {
    const res = await account.post("/monitor", {
      type: "http",
      url: `https://${name}.example.com/`,
      name,
      interval: 300,
      tags,
      locations: { pools: ["westeurope"] },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  shopId = await monitor("shop", ["prod", "shop"]);
  await monitor("blog", []);
  const contact = await account.post("/contact", {
    type: "http",
    address: "https://hooks.example.com/ops",
    name: "Ops",
  });
  expect(contact.status, contact.text).toBe(201);
  const alert = await account.put(`/monitor/${shopId}/alert/${contact.body.id}`, { alertTypes: ["down"] });
  expect(alert.status, alert.text).toBeLessThan(300);
}, 120_000);
afterAll(() => sb?.close());

const files = async (dir: string) => {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(join(dir, name), "utf8");
  return out;
};

describe("vigil export options", { timeout: 120_000 }, () => {
  it("refuses a filter it cannot read before connecting, writing nothing", async () => {
    const out = await workspace();
    const run = await vigil(["export", "--out", out, "--filter", "kind=monitr"], { cwd: home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--filter kind=monitr: no such kind; kinds: contact,");
    expect(await readdir(out)).toEqual([]);
    const schema = await vigil(["export", "--out", out, "--format", "hcl", "--schema", "s.json"], {
      cwd: home,
    });
    expect(schema.code).toBe(1);
    expect(schema.stderr).toContain(
      "--schema names the JSON Schema of YAML files; --format hcl writes none.",
    );
    // A program is one module: a constant is declared before what reads it, so no file per tag.
    for (const format of ["pulumi", "cdktf"]) {
      const split = await vigil(["export", "--out", out, "--format", format, "--split-by", "tag"], {
        cwd: home,
      });
      expect(split.code).toBe(1);
      expect(split.stderr).toContain(
        `--split-by tag: --format ${format} writes one program, its objects in the order they reference each other; use --filter tag=... to export one tag's objects.`,
      );
    }
    expect(await readdir(out)).toEqual([]);
  });

  it("--filter and --split-by tag; then --force replaces the export and removes only its own stale files", async () => {
    const out = await workspace();
    const first = await vigil(
      ["export", "--out", out, "--filter", "tag=prod", "--split-by", "tag", ...connection],
      {
        cwd: home,
      },
    );
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    // The subscription follows its monitor; the contact it names comes along.
    expect(first.stdout).toContain("Exported 3 objects, each with its import.");
    expect(first.stdout).toContain(
      "1 of them are outside the filters, exported because others reference them: contacts.ops.",
    );
    const written = await files(out);
    expect(Object.keys(written)).toEqual([
      ".vigil-export.json",
      "imports.yaml",
      "tag-prod.yaml",
      "untagged.yaml",
    ]);
    expect(parse(written["tag-prod.yaml"]!)).toEqual({
      monitors: {
        shop: {
          type: "http",
          url: "https://shop.example.com/",
          name: "shop",
          interval: 300,
          tags: ["prod", "shop"],
          locations: { pools: ["westeurope"] },
          alerts: [{ contact: "ops", alertTypes: ["down"] }],
        },
      },
    });
    expect(parse(written["untagged.yaml"]!)).toEqual({
      contacts: { ops: { type: "http", address: "https://hooks.example.com/ops", name: "Ops" } },
    });

    // Not over an export (or any YAML) without --force.
    const again = await vigil(["export", "--out", out, ...connection], { cwd: home });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      "already holds .vigil-export.json, imports.yaml, tag-prod.yaml, untagged.yaml; export into an empty directory, or pass --force to replace the earlier export.",
    );

    // The prod monitor goes; a file of the user's own stays whatever --force does.
    expect((await account.delete(`/monitor/${shopId}`)).status).toBe(200);
    await writeFile(join(out, "notes.yaml"), "# mine\n");
    const forced = await vigil(["export", "--out", out, "--split-by", "tag", "--force", ...connection], {
      cwd: home,
    });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`Removed ${join(out, "tag-prod.yaml")} (written by the earlier export)`);
    const after = await files(out);
    expect(Object.keys(after)).toEqual([".vigil-export.json", "imports.yaml", "notes.yaml", "untagged.yaml"]);
    expect(after["notes.yaml"]).toBe("# mine\n");
    expect(Object.keys(parse(after["untagged.yaml"]!).monitors)).toEqual(["blog"]);

    // The same account, the same files, byte for byte.
    const other = await workspace();
    const repeat = await vigil(["export", "--out", other, "--split-by", "tag", ...connection], {
      cwd: home,
    });
    expect(repeat.code, repeat.stderr).toBe(0);
    const { "notes.yaml": _, ...exported } = after;
    expect(await files(other)).toEqual(exported);
  });
});
