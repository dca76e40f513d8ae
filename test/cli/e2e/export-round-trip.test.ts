import { cp, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlan } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { vigil, workspace } from "../vigil.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const examples = resolve(import.meta.dirname, "../../../examples/gitops");

describe("vigil export", { timeout: 90_000 }, () => {
  it("round-trips: a plan on the export with a fresh state shows only imports, with no changes", async () => {
    const account = await sb.account({ plan: "business" });
    const connection = ["--endpoint", sb.url, "--token", account.token];
    // The example repo, with every kind and several monitor types, applied through the CLI.
    const repo = await workspace();
    await cp(examples, repo, { recursive: true });
    const applied = await vigil(["apply", ".", "--auto-approve", ...connection], { cwd: repo });
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    // change-log sets no secret: the service generated one, saved for `vigil output`, never printed.
    expect(applied.stdout).toContain(
      "webhooks.change-log: the service generated its secret, shown only once; saved to .vigil/outputs.json",
    );
    expect(applied.stdout).not.toContain("whsec_");
    expect((await stat(join(repo, ".vigil/outputs.json"))).mode & 0o777).toBe(0o600);

    const out = await workspace();
    const exported = await vigil(["export", "--out", out, ...connection], { cwd: repo });
    expect(exported.code).toBe(0);
    const files = (await readdir(out)).sort();
    expect(files).toEqual([
      // What the export wrote, so that a later export --force removes what it no longer writes.
      ".vigil-export.json",
      "contact-groups.yaml",
      "contacts.yaml",
      "imports.yaml",
      "maintenance.yaml",
      "monitors.yaml",
      "status-pages.yaml",
      "webhooks.yaml",
    ]);
    // Each credential comes back as a variable to set: the test knows the values the example applied.
    const variables = [...exported.stdout.matchAll(/^ {2}(VIGIL_[A-Z0-9_]+) {2}\((\S+) (\S+)\)$/gm)];
    // Keyed by "address member": the objects the repo's state manages keep the names it gives them.
    const known: Record<string, string> = {
      "monitors.checkout-api settings.password": "sandbox-only-password",
      // Header values are credentials too; these read back in full, so they must be the applied ones.
      "monitors.storefront settings.headers.0.value": "en",
      "monitors.payments-api settings.headers.0.value": "Bearer sandbox-status-token",
      "contacts.oncall httpHeaders.0.value": "Bearer sandbox-pager-token",
      // A header value the API masks: any value is taken as configured (the plan warns), none is sent.
      "webhooks.change-log headers.0.value": "any value",
    };
    expect(variables.map(([, , address, member]) => `${address} ${member}`).sort()).toEqual(
      Object.keys(known).sort(),
    );
    const env = Object.fromEntries(
      variables.map(([, name, address, member]) => [name!, known[`${address} ${member}`]!]),
    );
    // Only the owner may read the exported files until they are committed.
    for (const file of files) expect((await stat(join(out, file))).mode & 0o777, file).toBe(0o600);
    const state = JSON.parse(await readFile(join(repo, ".vigil/state.json"), "utf8"));

    const plan = await vigil(
      [
        "plan",
        out,
        "--json",
        "--detailed-exitcode",
        "--state",
        join(out, ".vigil/state.json"),
        ...connection,
      ],
      { cwd: out, env },
    );
    expect(plan.stderr).toBe("");
    // Imports are changes to the state: --detailed-exitcode says so.
    expect(plan.code).toBe(2);
    const parsed = parsePlan(plan.stdout);
    const managed = Object.keys(state.resources).length;
    expect(parsed.summary).toMatchObject({ import: managed, create: 0, update: 0, replace: 0, delete: 0 });
    expect(parsed.actions.filter((a) => a.action !== "import" || a.changes.length > 0)).toEqual([]);
    expect(exported.stdout).toContain(
      `${managed} of them keep the addresses the state (file .vigil/state.json) gives them.`,
    );

    // With the state it was exported beside, the export is the same configuration: nothing to change (the
    // imports it carries are done). The state knows the masked header's hash: it takes the applied value.
    const asApplied = { ...env };
    for (const [, name, address, member] of variables)
      if (`${address} ${member}` === "webhooks.change-log headers.0.value") asApplied[name!] = "platform";
    const same = await vigil(
      ["plan", out, "--detailed-exitcode", "--state", join(repo, ".vigil/state.json"), ...connection],
      { cwd: out, env: asApplied },
    );
    expect(same.code, `${same.stdout}\n${same.stderr}`).toBe(0);
    expect(same.stdout).toContain("No changes. The account matches the configuration.");
  });

  it("names objects the state does not manage from their own names, beside those it does", async () => {
    const account = await sb.account({ plan: "business" });
    const connection = ["--endpoint", sb.url, "--token", account.token];
    const repo = await workspace({
      "main.yaml": `monitors:
  shop:
    type: http
    url: https://shop.example.com/health
    name: Checkout API
    interval: 60
    locations: { pools: [westeurope] }
`,
    });
    expect((await vigil(["apply", "--auto-approve", ...connection], { cwd: repo })).code).toBe(0);
    // Made outside vigil, with the name the managed one would have been given.
    const made = await account.post("/monitor", {
      type: "http",
      url: "https://checkout.example.com/",
      name: "shop",
      interval: 60,
      locations: { pools: ["westeurope"] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const out = await workspace();
    const exported = await vigil(["export", "--out", out, ...connection], { cwd: repo });
    expect(exported.code, exported.stderr).toBe(0);
    const monitors = await readFile(join(out, "monitors.yaml"), "utf8");
    // The managed monitor keeps `shop` (its own name would give checkout-api); the other cannot take it.
    expect(monitors).toMatch(/^ {2}shop:\n {4}type: http\n {4}url: https:\/\/shop\.example\.com\/health$/m);
    expect(monitors).toMatch(/^ {2}shop-2:\n {4}type: http\n {4}url: https:\/\/checkout\.example\.com\/$/m);
    expect(monitors).not.toContain("checkout-api:");
    expect(exported.stdout).toContain(
      "1 of them keep the addresses the state (file .vigil/state.json) gives them.",
    );
  });

  it("--force replaces a link planted at an output file, never writing through it", async () => {
    const account = await sb.account({ plan: "business" });
    const created = await account.post("/contact", {
      type: "http",
      address: "https://hooks.example.com/a",
      name: "A",
    });
    expect(created.status, created.text).toBe(201);
    const out = await workspace();
    const victim = join(await workspace(), "victim.txt");
    await writeFile(victim, "do not touch\n", { mode: 0o644 });
    await symlink(victim, join(out, "imports.yaml"));
    const exported = await vigil(
      ["export", "--out", out, "--force", "--endpoint", sb.url, "--token", account.token],
      { cwd: out },
    );
    expect(exported.code).toBe(0);
    expect(await readFile(victim, "utf8")).toBe("do not touch\n");
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
    const written = await stat(join(out, "imports.yaml"));
    expect(written.isFile()).toBe(true);
    expect(written.mode & 0o777).toBe(0o600);
  });
});
