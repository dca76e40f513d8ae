/** `vigil watch`'s flags, judged before anything is read or sent. */
import { describe, expect, it } from "vitest";
import { type WatchCliOptions, watchFlags } from "../../../src/cli/commands/watch.ts";

const defaults: WatchCliOptions = {
  every: "5m",
  fullEvery: "1h",
  readBudget: "10",
  notifyFormat: "json",
  heal: false,
  healDeletes: false,
};
const flags = (more: Partial<WatchCliOptions>, env: NodeJS.ProcessEnv = {}) =>
  watchFlags({ ...defaults, ...more }, env);

describe("watchFlags", () => {
  it("reads the defaults and a full set of flags", () => {
    expect(flags({})).toEqual({
      listen: undefined,
      maxConnections: undefined,
      cadence: { everyMs: 300_000, fullEveryMs: 3_600_000 },
      share: 0.1,
      secret: undefined,
    });
    expect(
      flags(
        {
          listen: "[::1]:9100",
          maxConnections: "64",
          readBudget: "25",
          webhookSecretEnv: "HOOK",
          every: "90s",
        },
        { HOOK: "whsec_x" },
      ),
    ).toEqual({
      listen: { host: "::1", port: 9100 },
      maxConnections: 64,
      cadence: { everyMs: 90_000, fullEveryMs: 3_600_000 },
      share: 0.25,
      secret: "whsec_x",
    });
  });

  it("refuses flags that need another, or are out of range, saying what they take", () => {
    expect(() => flags({ maxConnections: "8" })).toThrow("--max-connections needs --listen.");
    expect(() => flags({ healDeletes: true })).toThrow("--heal-deletes needs --heal.");
    expect(() => flags({ webhookSecretEnv: "HOOK" })).toThrow(/--webhook-secret-env needs --listen/);
    expect(() => flags({ listen: "127.0.0.1:9100", webhookSecretEnv: "HOOK" })).toThrow(
      "--webhook-secret-env names HOOK, which is not set (or empty).",
    );
    expect(() => flags({ readBudget: "0" })).toThrow(/--read-budget takes a percentage above 0/);
    expect(() => flags({ listen: "9100" })).toThrow(/--listen takes HOST:PORT/);
    expect(() => flags({ every: "10ms" })).toThrow(/--every/);
    expect(() => flags({ notify: "hooks.example.com" })).toThrow(
      '--notify takes an http(s) URL, not "hooks.example.com".',
    );
  });
});
