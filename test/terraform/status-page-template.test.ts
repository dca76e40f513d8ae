/**
 * vigil_status_page_template in process, against the sandbox: a template has no PATCH, so every change of
 * the config is a replace; it is read from its page's list, imported by its id alone, and goes with its page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { attr, type Core, configuredCore, type Instance } from "../helpers/terraform-core.ts";

let sb: TestSandbox;
let account: Client & { accountId: string };
let core: Core;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  core = await configuredCore({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
});
afterAll(async () => sb?.close());

const type = "vigil_status_page_template";
const unique = () => Math.random().toString(36).slice(2, 10);

async function converged(typeName: string, prior: Instance | null, members: Record<string, unknown>) {
  const config = core.config(typeName, members);
  const applied = (await core.converge(typeName, prior, config))!;
  const read = (await core.read(typeName, applied))!;
  expect(read.state).toEqual(applied.state);
  expect((await core.plan(typeName, read, config)).action).toBe("no-op");
  return read;
}

const templatesOf = async (pageId: string) => (await account.get(`/statuspage/${pageId}/template`)).body.data;

describe(type, () => {
  it("create, no-op plan, a change replaces, import by id, delete", async () => {
    const page = await converged("vigil_status_page", null, { slug: `tpl-${unique()}`, title: "Shop" });
    const pageId = String(attr(page, "id"));
    const members = { pageId, title: "Checkout down", message: "Payments fail." };
    let t = await converged(type, null, members);
    const id = String(attr(t, "id"));
    expect(attr(t, "impact")).toBe("minor");
    expect(await templatesOf(pageId)).toMatchObject([{ id, title: "Checkout down", impact: "minor" }]);

    // No member can change in place: the plan replaces, naming the member.
    const changed = { ...members, impact: "major" };
    const plan = await core.plan(type, t, core.config(type, changed));
    expect(plan.action).toBe("replace");
    expect(plan.requiresReplace).toEqual([{ steps: [{ attribute_name: "impact" }] }]);
    t = await converged(type, t, changed);
    const newId = String(attr(t, "id"));
    expect(newId).not.toBe(id);
    expect(await templatesOf(pageId)).toMatchObject([{ id: newId, impact: "major" }]);

    // Import by the id alone: the template is found among the pages' templates.
    const imported = await core.import(type, newId);
    expect(attr(imported, "page_id")).toBe(pageId);
    expect((await core.plan(type, imported, core.config(type, changed))).action).toBe("no-op");

    expect(await core.apply(type, t, await core.plan(type, t, null), null)).toBeNull();
    expect(await templatesOf(pageId)).toEqual([]);
    expect(await core.read(type, t)).toBeNull();
  });

  it("a template whose page was deleted reads as gone", async () => {
    const page = await converged("vigil_status_page", null, { slug: `tpl-${unique()}`, title: "Blog" });
    const pageId = String(attr(page, "id"));
    const t = await converged(type, null, { pageId, title: "Maintenance", message: "Planned work." });
    const receipt = await account.delete(`/statuspage/${pageId}`);
    expect(receipt.body.cascaded.templates).toEqual([attr(t, "id")]);
    expect(await core.read(type, t)).toBeNull();
  });

  it("validation names the attribute: a title too long", async () => {
    const page = await converged("vigil_status_page", null, { slug: `tpl-${unique()}`, title: "Docs" });
    const config = core.config(type, { pageId: attr(page, "id"), title: "x".repeat(256), message: "m" });
    const errors = (await core.validate(type, config)).filter((d) => d.severity === "ERROR");
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0].attribute)).toContain("title");
  });
});
