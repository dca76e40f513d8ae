/**
 * One scenario, run by real Terraform on a configuration with every vigil kind (the HCL example, the
 * synthesized CDKTF stack): init from a filesystem mirror, apply, a plan without changes, drift made
 * through the API and seen by plan, `terraform import` of an object made outside Terraform, destroy.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { described, type TerraformRun, terraformWorkspace, type Workspace } from "../../helpers/terraform.ts";

/** Every resource type of the provider and the collection that lists its objects. */
export const collections = {
  vigil_monitor: "/monitor",
  vigil_contact: "/contact",
  vigil_contact_group: "/contact/group",
  vigil_alert_subscription: "/alert",
  vigil_report_subscription: "/report",
  vigil_maintenance: "/maintenance",
  vigil_status_page: "/statuspage",
  // Listed per page: one list for each page of /statuspage.
  vigil_status_page_template: "/statuspage/{id}/template",
  vigil_webhook: "/webhook",
} as const;
type ResourceType = keyof typeof collections;

/** How many objects of each resource type the account holds. */
export async function countObjects(account: Client): Promise<Record<ResourceType, number>> {
  // One page holds them all: a scenario makes a few dozen objects (not every list takes expand=count).
  const rows = async (path: string): Promise<{ id: string }[]> => {
    const res = await account.get(`${path}?limit=500`);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const count = async (path: string): Promise<number> => {
    const [parent, child] = path.split("/{id}");
    if (child === undefined) return (await rows(path)).length;
    const counts = await Promise.all((await rows(parent!)).map((p) => count(`${parent}/${p.id}${child}`)));
    return counts.reduce((a, b) => a + b, 0);
  };
  const entries = await Promise.all(
    Object.entries(collections).map(async ([type, path]) => [type, await count(path)] as const),
  );
  return Object.fromEntries(entries) as Record<ResourceType, number>;
}

interface StateResource {
  address: string;
  mode: "managed" | "data";
  type: string;
  values: Record<string, any>;
}

/** The managed resources of the state, from `terraform show -json`, in the root module and below. */
async function stateResources(ws: Workspace, dir: string): Promise<StateResource[]> {
  const { stdout } = await ws.ok(dir, "show", "-json");
  const collect = (module: any): StateResource[] => [
    ...(module?.resources ?? []),
    ...(module?.child_modules ?? []).flatMap(collect),
  ];
  return collect(JSON.parse(stdout).values?.root_module).filter((r) => r.mode === "managed");
}

/** How many of each resource type the state manages. */
function countState(resources: StateResource[]): Record<ResourceType, number> {
  const counts = Object.fromEntries(Object.keys(collections).map((type) => [type, 0]));
  for (const r of resources) counts[r.type] = (counts[r.type] ?? 0) + 1;
  return counts as Record<ResourceType, number>;
}

const expectExit = (run: TerraformRun, code: number) => expect(run.code, described(run)).toBe(code);

/**
 * Defines the scenario's tests in the calling `describe`. `prepare` puts the configuration in the
 * workspace and answers its folder; `vars` are the configuration's variables (TF_VAR_*).
 */
export function terraformLifecycle(options: {
  prepare(ws: Workspace): Promise<string>;
  vars?: Record<string, string>;
}) {
  let sb: TestSandbox;
  let account: Client;
  let ws: Workspace;
  let dir: string;

  beforeAll(async () => {
    sb = await startTestSandbox();
    // Unmetered: the scenario measures nothing, so quota pacing would only slow it down.
    account = await sb.account({ plan: "enterprise" });
    ws = await terraformWorkspace({
      env: { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token },
      vars: options.vars,
    });
    dir = await options.prepare(ws);
  }, 120_000);

  afterAll(async () => {
    await ws?.remove();
    await sb?.close();
  });

  it("init installs the provider from the filesystem mirror", { timeout: 60_000 }, async () => {
    const init = await ws.ok(dir, "init", "-input=false");
    expect(init.stdout).toMatch(/Installing vigil\/vigil v\d+\.\d+\.\d+/);
    expect(init.stdout).toContain("Terraform has been successfully initialized!");
  });

  it("apply creates every resource of the configuration", { timeout: 180_000 }, async () => {
    const apply = await ws.ok(dir, "apply", "-auto-approve", "-input=false");
    expect(apply.stdout).toMatch(/Apply complete! Resources: \d+ added, 0 changed, 0 destroyed\./);
    const managed = countState(await stateResources(ws, dir));
    for (const [type, count] of Object.entries(managed)) expect(count, type).toBeGreaterThan(0);
    expect(await countObjects(account)).toEqual(managed);
  });

  it("a plan right after apply has no changes", { timeout: 120_000 }, async () => {
    const plan = await ws.run(dir, "plan", "-detailed-exitcode", "-input=false");
    expectExit(plan, 0);
    expect(plan.stdout).toContain("No changes.");
  });

  it("a monitor edited outside Terraform shows as drift, and apply restores it", {
    timeout: 180_000,
  }, async () => {
    const monitor = (await stateResources(ws, dir)).find((r) => r.type === "vigil_monitor" && r.values.name);
    expect(monitor, "a vigil_monitor with a name in the state").toBeDefined();
    const { id, name } = monitor!.values as { id: string; name: string };
    const edit = await account.patch(`/monitor/${id}`, { name: "Renamed outside Terraform" });
    expect(edit.status, edit.text).toBe(200);

    const plan = await ws.run(dir, "plan", "-detailed-exitcode", "-input=false");
    expectExit(plan, 2);
    expect(plan.stdout).toContain(`# ${monitor!.address} will be updated in-place`);
    expect(plan.stdout).toContain(`~ name`);
    expect(plan.stdout).toContain(`"Renamed outside Terraform" -> ${JSON.stringify(name)}`);
    expect(plan.stdout).toMatch(/Plan: 0 to add, 1 to change, 0 to destroy\./);
    // The update shows only what it can move: `updated`, never an http monitor's certificate dates.
    const header = `# ${monitor!.address} will be updated in-place`;
    const update = plan.stdout.slice(plan.stdout.indexOf(header)).split("\n\n")[0]!;
    expect(update).toContain("~ updated");
    expect(update).not.toMatch(/cert_not_before|expiration_date|effective_url|since|state/);

    await ws.ok(dir, "apply", "-auto-approve", "-input=false");
    expect((await account.get(`/monitor/${id}`)).body.name).toBe(name);
    expectExit(await ws.run(dir, "plan", "-detailed-exitcode", "-input=false"), 0);
  });

  it("terraform import brings a monitor made outside Terraform under an address", {
    timeout: 180_000,
  }, async () => {
    const created = await account.post("/monitor", {
      type: "http",
      url: "https://imported.example.com/health",
      name: "Made outside Terraform",
      interval: 300,
      locations: { pools: ["westeurope"] },
      tags: ["imported"],
      // Settings written, attached sub-checks not: the import reads them back off, as the config implies.
      settings: { method: "G", timeout: 5000 },
    });
    expect(created.status, created.text).toBe(201);
    // JSON configuration: Terraform reads it beside HCL and beside a synthesized cdk.tf.json alike.
    await writeFile(
      join(dir, "imported.tf.json"),
      JSON.stringify({
        resource: {
          vigil_monitor: {
            imported: {
              type: "http",
              url: "https://imported.example.com/health",
              name: "Made outside Terraform",
              interval: 300,
              locations: { pools: ["westeurope"] },
              tags: ["imported"],
              settings: { method: "G", timeout: 5000 },
            },
          },
        },
      }),
    );

    const imported = await ws.ok(dir, "import", "-input=false", "vigil_monitor.imported", created.body.id);
    expect(imported.stdout).toContain("Import successful!");
    const state = await stateResources(ws, dir);
    expect(state.find((r) => r.address === "vigil_monitor.imported")?.values).toMatchObject({
      id: created.body.id,
      type: "http",
      url: "https://imported.example.com/health",
      name: "Made outside Terraform",
      interval: 300,
      tags: ["imported"],
    });
    // The configuration matches what was imported: nothing to change.
    const plan = await ws.run(dir, "plan", "-detailed-exitcode", "-input=false");
    expectExit(plan, 0);
  });

  it("a value outside an attribute's allowed values is refused, naming them once", {
    timeout: 120_000,
  }, async () => {
    const file = join(dir, "imported.tf.json");
    const config = JSON.parse(await readFile(file, "utf8"));
    await writeFile(
      file,
      JSON.stringify({
        resource: { vigil_monitor: { imported: { ...config.resource.vigil_monitor.imported, type: "rum" } } },
      }),
    );
    const validate = await ws.run(dir, "validate", "-no-color");
    await writeFile(file, JSON.stringify(config));
    expectExit(validate, 1);
    expect(validate.stderr).toContain("rum monitors can no longer be created");
    expect(validate.stderr.split('"pageSpeed"').length - 1).toBe(1);
  });

  it("destroy leaves nothing in the account", { timeout: 180_000 }, async () => {
    const destroy = await ws.ok(dir, "destroy", "-auto-approve", "-input=false");
    expect(destroy.stdout).toMatch(/Destroy complete! Resources: \d+ destroyed\./);
    const left = await countObjects(account);
    expect(left).toEqual(Object.fromEntries(Object.keys(collections).map((type) => [type, 0])));
    expect(await stateResources(ws, dir)).toEqual([]);
  });
}
