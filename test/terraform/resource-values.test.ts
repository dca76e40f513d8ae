import { describe, expect, it } from "vitest";
import { diffResource } from "../../src/engine/index.ts";
import { liveValue } from "../../src/terraform/resource-values.ts";
import { resourceType } from "../../src/terraform/resources.ts";

describe("liveValue", () => {
  const webhook = resourceType("vigil_webhook");
  const row = () => ({
    id: "8b6f0c1e-0d1a-4f8e-9a43-1f0e2d3c4b5a",
    url: "https://hooks.example.com/vigil",
    name: "Incident bot",
    events: ["monitor.down"],
    scope: { tags: ["prod"] },
    headers: [{ header: "X-Team", value: { set: true } }],
    enabled: true,
  });

  it("reads masked header values as null, and leaves the row it was given as it was", () => {
    const live = row();
    const value = liveValue(webhook.kind, webhook.type, webhook.attributes, webhook.rules.sensitive, live);
    expect(value.headers).toEqual([{ header: "X-Team", value: null }]);
    expect(live).toEqual(row());
  });

  it("so a refresh's drift check after it still sees the masked value as unchanged", () => {
    const live = row();
    liveValue(webhook.kind, webhook.type, webhook.attributes, webhook.rules.sensitive, live);
    const desired = {
      url: "https://hooks.example.com/vigil",
      name: "Incident bot",
      events: ["monitor.down"],
      scope: { tags: ["prod"] },
      headers: [{ header: "X-Team", value: "platform" }],
    };
    expect(diffResource({ kind: webhook.kind, desired, live, lineage: "terraform" }).changes).toEqual([]);
  });
});
