/**
 * A plan says all it finds in one run: a problem of the plan itself (a protected resource it would delete)
 * no longer hides what the account would refuse of the same plan until the first is fixed.
 */
import { expect, it } from "vitest";
import { sandboxWorkspace, shown } from "./helpers.ts";

const monitor = (name: string, interval: number, protect = false) => `  ${name}:
    type: http
    url: https://${name}.example.com/
    name: ${name}
    interval: ${interval}
    locations: { pools: [westeurope] }
${protect ? "    lifecycle: { protect: true }\n" : ""}`;

it.concurrent("a protected delete and an interval the account refuses, both in one plan", async () => {
  const w = await sandboxWorkspace({
    "main.yaml": `monitors:\n${monitor("keep", 60, true)}${monitor("other", 60)}`,
  });
  expect((await w.run(["apply", "--sandbox", "--auto-approve"])).code).toBe(0);
  await w.write("main.yaml", `monitors:\n${monitor("other", 45)}`);
  for (const args of [
    ["plan", "--sandbox"],
    ["apply", "--sandbox", "--auto-approve"],
  ]) {
    const run = await w.run(args);
    expect(run.code, shown(run)).toBe(1);
    expect(run.stderr.split("\n")).toEqual([
      "Error: main.yaml:6:15: monitors.other interval: 422 invalid_interval: 45 seconds is not one of the account's intervals; allowed: 30, 60, 120, 180, 300, 600, 900, 1800, 3600",
      "Error: The plan cannot be made:",
      "  monitors.keep is protected: it is no longer in the config, and the plan would delete it",
      "The account would also refuse this write of the plan (above); nothing was sent to the API.",
      "",
    ]);
  }
}, 90_000);
