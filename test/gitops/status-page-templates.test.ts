/**
 * Status page templates in vigil files: nested under their page by a logical name of their own
 * (`statusPages.<page>.templates.<name>`), loaded into resources of the engine, applied to the sandbox,
 * exported back in the same place.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { applyChanges, MemoryStateStore, planChanges } from "../../src/engine/index.ts";
import { exportAccount } from "../../src/gitops/export.ts";
import { formatDiagnostic, loadConfig } from "../../src/gitops/load.ts";
import { changed, engineAccount, writesSince } from "../engine/e2e/helpers.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
const dirs: string[] = [];
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function load(text: string) {
  const dir = await mkdtemp(join(tmpdir(), "vigil-templates-"));
  dirs.push(dir);
  await writeFile(join(dir, "status.yaml"), text);
  return loadConfig([dir], { env: {} });
}

const pages = (templates: string) => `statusPages:
  public:
    slug: templates-gitops
    title: Shop status
    templates:
${templates}`;

const both = `      checkout-down:
        title: Checkout unavailable
        message: Payments fail. We are working on it.
        impact: major
      slow:
        title: Slow pages
        message: Pages load slowly.
`;

describe("status page templates in vigil files", () => {
  it("load as resources of their own under the page, the page's id a reference the layout gives", async () => {
    const config = await load(pages(both));
    expect(config.diagnostics).toEqual([]);
    const byAddress = new Map(config.resources.map((r) => [r.address, r]));
    expect(byAddress.get("statusPages.public")?.members).toEqual({
      slug: "templates-gitops",
      title: "Shop status",
    });
    expect(byAddress.get("statusPages.public.templates.checkout-down")).toMatchObject({
      kind: "statusPageTemplate",
      members: {
        pageId: { $ref: "statusPages.public" },
        title: "Checkout unavailable",
        message: "Payments fail. We are working on it.",
        impact: "major",
      },
      source: { line: 6 },
    });
    expect(byAddress.get("statusPages.public.templates.slow")?.members).not.toHaveProperty("impact");
  });

  it("refuse what a template cannot hold, at file:line:column, changing nothing", async () => {
    const config = await load(
      pages(`      bad:
        title: Bad
        message: Bad impact.
        impact: severe
        color: red
`),
    );
    const messages = config.diagnostics.map(formatDiagnostic);
    expect(messages).toEqual([
      expect.stringMatching(/status\.yaml:9:17: .*impact.*"minor".*"major"/),
      expect.stringMatching(/status\.yaml:10:9: .*color/),
    ]);
  });

  it("apply under their page; a changed message replaces; export writes them back under the page", async () => {
    const { client, ops, time } = await engineAccount(sb);
    const store = new MemoryStateStore();
    const desired = (await load(pages(both))).resources;
    const first = await applyChanges({ ops, store, desired, time });
    expect(first.result.failures).toEqual([]);
    expect(changed((await planChanges({ ops, store, desired, time })).plan)).toEqual([]);

    const edited = (await load(pages(both.replace("Pages load slowly.", "Pages are slow today.")))).resources;
    const { plan } = await planChanges({ ops, store, desired: edited, time });
    expect(changed(plan).map((a) => [a.address, a.action])).toEqual([
      ["statusPages.public.templates.slow", "replace"],
    ]);
    const before = client.metrics.snapshot().byRoute;
    expect((await applyChanges({ ops, store, desired: edited, time })).result.failures).toEqual([]);
    expect(writesSince(before, client.metrics.snapshot().byRoute)).toEqual({
      "POST /statuspage/{id}/template": 1,
      "DELETE /statuspage/{id}/template/{templateId}": 1,
    });

    const exported = await exportAccount(ops, {});
    const file = Object.entries(exported.files).find(([name]) => name.startsWith("status"))!;
    const page = Object.values(parse(file[1]).statusPages as Record<string, any>)[0];
    expect(Object.values(page.templates)).toEqual(
      expect.arrayContaining([
        { title: "Checkout unavailable", message: "Payments fail. We are working on it.", impact: "major" },
        // The default impact is left out, as export leaves out every default.
        { title: "Slow pages", message: "Pages are slow today." },
      ]),
    );
    expect(Object.keys(page.templates)).toHaveLength(2);
    expect(JSON.stringify(page.templates)).not.toContain("pageId");
  });
});
