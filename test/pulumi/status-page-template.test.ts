/**
 * StatusPageTemplate through the Pulumi provider's handlers, against the sandbox: a template has no PATCH,
 * so the diff of any change is a replace; Read finds it in its page's list, by its id alone on import.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandlers, type ProviderHandlers } from "../../src/pulumi/provider/handlers.ts";
import { type Props, secret } from "../../src/pulumi/provider/values.ts";
import { resourceToken } from "../../src/pulumi/tokens.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
let account: Client & { accountId: string };
let p: ProviderHandlers;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  p = createHandlers({});
  p.Configure({ args: { endpoint: sb.url, token: secret(account.token) } });
});
afterAll(async () => sb?.close());

const type = resourceToken("statusPageTemplate");
const unique = () => Math.random().toString(36).slice(2, 10);
const urnOf = (t: string) => `urn:pulumi:dev::proj::${t}::r${unique()}`;

interface State {
  urn: string;
  id: string;
  inputs: Props;
  outputs: Props;
}

async function up(t: string, news: Props): Promise<State> {
  const urn = urnOf(t);
  const checked = await p.Check({ urn, news });
  expect(checked.failures).toEqual([]);
  const created = await p.Create({ urn, properties: checked.inputs });
  return { urn, id: created.id, inputs: checked.inputs, outputs: created.properties };
}

const diff = (s: State, news: Props) =>
  p.Diff({ urn: s.urn, id: s.id, olds: s.outputs, news, oldInputs: s.inputs });

describe("StatusPageTemplate", () => {
  it("is the SDK's class of the kind", () => {
    expect(type).toBe("vigil:index:StatusPageTemplate");
  });

  it("check, create, empty diff, a change replaces, refresh, import, delete", async () => {
    const page = await up(resourceToken("statusPage"), { slug: `tpl-${unique()}`, title: "Shop" });
    const inputs = { pageId: page.id, title: "Checkout down", message: "Payments fail." };
    const t = await up(type, inputs);
    expect(t.outputs).toMatchObject({ ...inputs, impact: "minor" });
    expect(diff(t, t.inputs).changes).toBe("DIFF_NONE");

    // Every member is immutable: a new message replaces, and the old template may go first (same title).
    const checked = await p.Check({
      urn: t.urn,
      olds: t.inputs,
      news: { ...inputs, message: "Fixed soon." },
    });
    expect(checked.failures).toEqual([]);
    const d = diff(t, checked.inputs);
    expect(d.changes).toBe("DIFF_SOME");
    expect(d.replaces).toEqual(["message"]);
    expect(d.detailedDiff.message).toEqual({ kind: "UPDATE_REPLACE", inputDiff: true });

    const refreshed = await p.Read({ urn: t.urn, id: t.id, properties: t.outputs, inputs: t.inputs });
    expect(refreshed.id).toBe(t.id);
    expect(diff({ ...t, outputs: refreshed.properties! }, t.inputs).changes).toBe("DIFF_NONE");

    // Import: Read with the id only finds the template under its page.
    const urn = urnOf(type);
    const imported = await p.Read({ urn, id: t.id });
    expect(imported.inputs).toMatchObject(inputs);
    const again = await p.Check({ urn, news: imported.inputs! });
    expect(again.failures).toEqual([]);
    expect(p.Diff({ urn, id: t.id, olds: imported.properties!, news: again.inputs }).changes).toBe(
      "DIFF_NONE",
    );

    await p.Delete({ urn: t.urn, id: t.id, properties: t.outputs });
    expect((await account.get(`/statuspage/${page.id}/template`)).body.data).toEqual([]);
    expect((await p.Read({ urn: t.urn, id: t.id, properties: t.outputs })).id).toBe("");
  });

  it("a template whose page is gone reads as gone", async () => {
    const page = await up(resourceToken("statusPage"), { slug: `tpl-${unique()}`, title: "Blog" });
    const t = await up(type, {
      pageId: page.id,
      title: "Planned",
      message: "Planned work.",
      impact: "major",
    });
    const receipt = await account.delete(`/statuspage/${page.id}`);
    expect(receipt.body.cascaded.templates).toEqual([t.id]);
    expect((await p.Read({ urn: t.urn, id: t.id, properties: t.outputs })).id).toBe("");
  });

  it("Check names the property of a bad value", async () => {
    const checked = await p.Check({
      urn: urnOf(type),
      news: { pageId: "not-a-guid", title: "T", message: "M", impact: "severe" },
    });
    expect(checked.failures.map((f: { property: string }) => f.property).sort()).toEqual([
      "impact",
      "pageId",
    ]);
  });
});
