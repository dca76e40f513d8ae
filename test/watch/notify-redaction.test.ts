/**
 * A notification is output that leaves by HTTP, not by the CLI's streams: `vigil watch --notify` passes its
 * body through the run's secrets too (issue 25, point 7). A drifted member whose live value holds a value
 * from the environment (someone pasted the token into the monitor's name) goes out masked.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { SecretValues } from "../../src/engine/index.ts";
import { Notifier } from "../../src/watch/notify.ts";
import type { Transition } from "../../src/watch/transitions.ts";
import { receiver } from "./helpers.ts";

const token = "Tok-notify-7f3a9c";
let hook: Awaited<ReturnType<typeof receiver>>;
beforeAll(async () => {
  hook = await receiver();
});
afterAll(async () => {
  await hook?.close();
});

const drifted: Transition = {
  time: "2025-01-01T00:00:00Z",
  transition: "drifted",
  address: "monitors.web",
  kind: "monitor",
  id: "m1",
  seenBy: "poll",
  members: [{ member: "name", before: "web", after: `web ${token}` }],
};

it.each(["json", "slack"] as const)(
  "the %s body goes out with no secret, the rest as it was",
  async (format) => {
    const secrets = new SecretValues([token]);
    const notifier = new Notifier({
      url: hook.url,
      format,
      warn: () => {},
      redact: (t) => secrets.redact(t),
    });
    const before = hook.bodies.length;
    await notifier.send(drifted);
    const body = hook.bodies[before]!;
    expect(body).not.toContain(token);
    expect(body).toContain("web (sensitive)");
    expect(JSON.parse(body)).toBeTypeOf("object");
  },
);
