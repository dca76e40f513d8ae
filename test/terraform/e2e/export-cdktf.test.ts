/**
 * `vigil export --format cdktf` against real Terraform: an account holding every kind, with references between
 * them and credentials set, exported by the CLI; the stack type-checks against the generated bindings with
 * the real tsc, synthesizes with the pinned Node (`node main.ts`), and after `terraform init` from the
 * filesystem mirror the plan of its JSON imports every object and changes nothing.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DesiredResource } from "../../../src/engine/index.ts";
import { getAt, toPointer } from "../../../src/engine/pointer.ts";
import type { vigil } from "../../cli/vigil.ts";
import {
  appliedFixture,
  exportFixture,
  exportWith,
  fixtureCredentials,
} from "../../helpers/exported-account.ts";
import { linkPackages, nodeBin, tscBin } from "../../helpers/linked-project.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { described, terraformWorkspace, type Workspace } from "../../helpers/terraform.ts";
import { describeWithTerraform } from "./describe.ts";

const run = promisify(execFile);
const tag = "cdkexport";
const fixture = exportFixture(tag, `{"user":"\${USER}","greeting":"%{if x}hi%{endif}"}`);
const credentialValues = fixtureCredentials(tag);

describeWithTerraform("vigil export --format cdktf, synthesized, then real Terraform", () => {
  let sb: TestSandbox;
  let ws: Workspace;
  let dir: string;
  let byId: Map<string, DesiredResource>;
  let exported: Awaited<ReturnType<typeof vigil>>;
  let files: Record<string, string>;
  let stackDir: string;

  beforeAll(async () => {
    sb = await startTestSandbox();
    const applied = await appliedFixture(sb, fixture);
    const { account } = applied;
    byId = applied.byId;
    ws = await terraformWorkspace({ env: { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token } });
    dir = join(ws.root, "export");
    ({ exported, files } = await exportWith(sb, account.token, { format: "cdktf", dir, cwd: ws.root }));
    // Each variable the command lists, set to the value the fixture applied at that member.
    const imports = new Map(
      [
        ...files["main.ts"]!.matchAll(
          /const (\w+) = new vigil\.\w+\(this, "(\w+)",[\s\S]*?\n {4}\1\.importFrom\("([^"]+)"\);/g,
        ),
      ].map(([, , name, id]) => [name!, id!]),
    );
    for (const [, name, address, member] of exported.stdout.matchAll(/^ {2}(\w+) {2}\((\S+) (\S+)\)$/gm)) {
      const resource = byId.get(imports.get(address!.split(".")[1]!)!)!;
      ws.env[`TF_VAR_${name}`] = String(getAt(resource.members, toPointer(member!)));
    }
    await linkPackages(dir, ["cdktf", "constructs", "@types"]);
    stackDir = join(dir, "cdktf.out/stacks/vigil-account");
  }, 300_000);

  afterAll(async () => {
    await ws?.remove();
    await sb?.close();
  });

  it("writes the stack with references, sensitive variables and an importFrom per resource; no credential", () => {
    const stack = files["main.ts"]!;
    expect(Object.keys(files).sort()).toEqual([
      ".vigil-export.json",
      "cdktf.json",
      "main.ts",
      "package.json",
      "tsconfig.json",
    ]);
    expect(stack).toContain(
      `    const httpFull${cap(tag)}Hook${cap(tag)} = new vigil.AlertSubscription(this, "http_full_${tag}_hook_${tag}", {\n` +
        `      monitorId: httpFull${cap(tag)}.id,\n` +
        `      contactId: hook${cap(tag)}.id,\n` +
        '      alertTypes: ["repeatedlyDown", "down", "up"],\n' +
        "    });\n",
    );
    expect(stack).toContain(
      `    const monitorsHttpFull${cap(tag)}SettingsPassword = new TerraformVariable(this, "monitors_http_full_${tag}_settings_password", {\n` +
        '      type: "string",\n      sensitive: true,\n',
    );
    expect(stack).toContain(`        password: monitorsHttpFull${cap(tag)}SettingsPassword.stringValue,\n`);
    const text = Object.values(files).join("\n");
    for (const secret of credentialValues) expect(text).not.toContain(secret);
    expect(stack).not.toMatch(/\bnull\b/);
    for (const id of byId.keys()) {
      expect(stack.split(`"${id}"`).length - 1, `${id} outside its importFrom`).toBe(1);
      expect(stack).toMatch(new RegExp(`\\.importFrom\\("${id}"\\);`));
    }
  });

  it("type-checks against the generated bindings with tsc --noEmit", { timeout: 180_000 }, async () => {
    const result = await run(tscBin, ["-p", dir], { cwd: dir }).catch((e: { stdout: string }) => e);
    expect(result.stdout).toBe("");
  });

  it("synthesizes with node main.ts; terraform plans every import and no change", {
    timeout: 600_000,
  }, async () => {
    await run(nodeBin, ["--disable-warning=ExperimentalWarning", "main.ts"], { cwd: dir, env: ws.env });
    const json = await readFile(join(stackDir, "cdk.tf.json"), "utf8");
    for (const secret of credentialValues) expect(json).not.toContain(secret);
    await ws.ok(stackDir, "init", "-input=false");
    const plan = await ws.run(stackDir, "plan", "-input=false");
    expect(plan.code, described(plan)).toBe(0);
    expect(plan.stdout).toContain(`Plan: ${byId.size} to import, 0 to add, 0 to change, 0 to destroy.`);
  });
});

const cap = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
