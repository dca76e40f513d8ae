import { describe, expect, it } from "vitest";
import { type DesiredResource, validateDesired } from "../../../src/engine/index.ts";

const ref = (address: string) => ({ $ref: address });
const monitor: DesiredResource = {
  address: "monitors.web",
  kind: "monitor",
  members: { type: "http", url: "https://web.example.com/", locations: { pools: ["allworld"] } },
};
const contact: DesiredResource = {
  address: "contacts.oncall",
  kind: "contact",
  members: { type: "email", address: "oncall@example.com" },
};
const alert = (address: string): DesiredResource => ({
  address,
  kind: "alertSubscription",
  members: { monitorId: ref("monitors.web"), contactId: ref("contacts.oncall"), alertTypes: ["down"] },
});

describe("addresses", () => {
  it("takes a subscription under its collection or nested in its monitor", () => {
    expect(validateDesired([monitor, contact, alert("alertSubscriptions.web-oncall")])).toEqual([]);
    expect(validateDesired([monitor, contact, alert("monitors.web.alerts.oncall")])).toEqual([]);
  });

  it("refuses a nested address under the wrong member, and names both forms", () => {
    const problems = validateDesired([monitor, contact, alert("monitors.web.reports.oncall")]);
    expect(problems).toEqual([
      expect.objectContaining({
        address: "monitors.web.reports.oncall",
        message: expect.stringContaining("alertSubscriptions.<name> or monitors.<name>.alerts.<name>"),
      }),
    ]);
  });

  it("refuses a collection that holds another kind", () => {
    const problems = validateDesired([{ ...monitor, address: "contacts.web" }]);
    expect(problems[0]?.message).toMatch(/a monitor address is monitors\.<name>/);
  });

  it("reports a reference to an undeclared address", () => {
    const problems = validateDesired([monitor, alert("monitors.web.alerts.oncall")]);
    expect(problems.map((p) => p.message)).toEqual([
      "references contacts.oncall, which the config does not declare",
    ]);
  });
});
