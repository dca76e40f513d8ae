/**
 * A credential the service generates (a webhook's secret when the config sets none) is shown by the API
 * once: apply saves it to `.vigil/outputs.json` (0600) and says where, never printing it; `vigil output`
 * shows it masked, and in full only when asked.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { project, shown, useSandbox } from "./helpers.ts";

const sandbox = useSandbox();

const config = (withSecret: boolean) => `webhooks:
  changes:
    url: https://hooks.example.com/vigil-output
    events: [monitor.created]
    scope: { all: true }
  signed:
    url: https://hooks.example.com/vigil-output-signed
    events: [monitor.created]
    scope: { all: true }
${withSecret ? "    secret: own-secret-0123456789\n" : ""}`;

describe("vigil output", { timeout: 90_000 }, () => {
  it("apply saves a generated secret and names it; output masks it unless --show-secrets", async () => {
    const p = await project(sandbox(), { "main.yaml": config(true) });
    const apply = await p.run(["apply", "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain(
      "webhooks.changes: the service generated its secret, shown only once; saved to .vigil/outputs.json (mode 0600, keep it out of Git). Print it with: vigil output webhooks.changes secret --show-secrets",
    );
    // Only the webhook without a secret of its own has one to hand out.
    expect(apply.stdout).not.toContain("webhooks.signed: the service generated");
    expect(apply.stdout + apply.stderr).not.toMatch(/whsec_/);
    expect((await stat(join(p.dir, ".vigil/outputs.json"))).mode & 0o777).toBe(0o600);

    const id = await p.idOf("webhooks.changes");
    const masked = await p.run(["output"]);
    expect(masked.code, shown(masked)).toBe(0);
    expect(masked.stdout).toMatch(
      new RegExp(`^webhooks\\.changes secret: \\(sensitive\\)  \\(webhook ${id}, generated \\S+\\)$`, "m"),
    );
    expect(masked.stdout).toContain("Values are hidden; --show-secrets prints them.");
    expect(masked.stdout).not.toMatch(/whsec_/);
    const json = await p.run(["output", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      "webhooks.changes": {
        kind: "webhook",
        id,
        generatedAt: expect.any(String),
        managed: true,
        values: { secret: "(sensitive)" },
      },
    });

    const bare = await p.run(["output", "webhooks.changes", "secret", "--show-secrets"]);
    expect(bare.code, shown(bare)).toBe(0);
    expect(bare.stdout).toMatch(/^whsec_\S+\n$/);
    // The API read it back masked ever since; the value is the one its create answered.
    const live = await p.account.get(`/webhook/${id}`);
    expect(live.body.secret).toMatchObject({ set: true });

    // A second apply creates nothing and keeps the file; a destroyed webhook's entry is marked.
    const again = await p.run(["apply", "--auto-approve"]);
    expect(again.stdout).not.toContain("generated its secret");
    expect((await p.run(["output", "webhooks.changes", "secret", "--show-secrets"])).stdout).toBe(
      bare.stdout,
    );
    const destroyed = await p.run(["destroy", "--auto-approve"]);
    expect(destroyed.code, shown(destroyed)).toBe(0);
    expect((await p.run(["output"])).stdout).toContain("(no longer managed");

    const unknown = await p.run(["output", "webhooks.signed"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("webhooks.signed has no outputs in .vigil/outputs.json");
  });
});
