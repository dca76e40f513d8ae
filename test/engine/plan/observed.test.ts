import { describe, expect, it } from "vitest";
import { engineKind } from "../../../src/engine/kinds/index.ts";
import { observedOf } from "../../../src/engine/plan/observed.ts";
import { contactRow } from "./account.ts";

describe("observedOf", () => {
  it("records a row's updated time and a digest that moves with its members", () => {
    const contact = engineKind("contact");
    const row = contactRow("c1", "ops@example.com");
    const seen = observedOf(contact, row);
    expect(seen).toEqual({ updated: 1795897875, digest: expect.stringMatching(/^sha256:/) });
    expect(observedOf(contact, { ...row, name: "other" }).digest).not.toBe(seen.digest);
    const { updated: _updated, ...undated } = row;
    expect(observedOf(contact, undated)).toEqual({ digest: expect.stringMatching(/^sha256:/) });
  });

  it("keeps a credential read in full out of the digest, without touching the row", () => {
    const webhook = engineKind("webhook");
    const row = {
      id: "w1",
      url: "https://hooks.example.com/",
      events: ["monitor.down"],
      scope: { all: true },
      secret: "whsec_first",
      updated: 1,
    };
    const first = observedOf(webhook, row).digest;
    expect(observedOf(webhook, { ...row, secret: "whsec_second" }).digest).toBe(first);
    expect(row.secret).toBe("whsec_first");
  });
});
