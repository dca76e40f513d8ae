import { describe, expect, test } from "vitest";
import { applied, diff, edited, patch } from "./helpers.ts";

/** An http monitor with a bare-domain url, a credential, the attached alias, a capped maxSize and a dropped header. */
const desired = {
  type: "http",
  url: "example-t.com",
  name: "HTTP full",
  interval: 60,
  tags: ["zeta", "alpha", "fixture-t"],
  locations: { pools: ["AllWorld"], fallback: "geo", excludedAgents: ["agent-b", "agent-a"] },
  recheck: { strategy: "minNumDown", minNumDown: 3 },
  attached: { dnsbl: true, sslExp: { enabled: true } },
  slaTarget: 99.9,
  onOverlimit: "disable",
  settings: {
    method: "P",
    timeout: 20000,
    username: "checker",
    password: "pw-hunter2",
    headers: [
      { name: "X-Env", value: "prod" },
      { name: "Connection", value: "close" },
    ],
    ignoredStatuses: [404, 401],
    maxSize: 20_000_000,
    certWatchDays: [30, 7, 14],
  },
};

/** How the sandbox lists it (docs/engine-readback.md): defaults added, address normalised, sets in another order. */
const live = {
  id: "m1",
  type: "http",
  url: "example-t.com",
  effectiveUrl: "http://example-t.com/",
  name: "HTTP full",
  interval: 60,
  cronSchedule: null,
  enabled: true,
  tags: ["alpha", "fixture-t", "zeta"],
  slaTarget: 99.9,
  locations: { pools: ["allworld"], fallback: "geo", excludedAgents: ["agent-a", "agent-b"] },
  recheck: { strategy: "minNumDown", minNumDown: 3 },
  openStat: false,
  fullLog: false,
  state: "up",
  since: 1000,
  created: 1000,
  updated: 1000,
  settings: {
    method: "P",
    timeout: 20000,
    username: "checker",
    password: "pw-hunter2",
    headers: [{ name: "X-Env", value: "prod" }],
    ignoredStatuses: [401, 404],
    maxSize: 10485760,
    certWatchDays: [7, 14, 30],
    keywordMode: "PresentAny",
    followRedirect: true,
    maxRedirects: 20,
    errorOnRedirect: false,
    accept: "*/*",
    publicDns: 0,
    dnsNoCache: false,
    requireValidChain: false,
    checkRevocation: false,
    requireStrongTls: false,
    blockWeakCiphers: false,
    assertMode: false,
    assertsText: "",
    forceRecheck: false,
    attached: {
      dnsbl: { enabled: true },
      sslExp: { enabled: true },
      domainExp: { enabled: false },
      webRisk: { enabled: false },
    },
  },
};

const prior = applied("monitor", desired);

describe("monitor http", () => {
  test("the read-back row is no change: effectiveUrl, pools case, set order, capped maxSize, dropped header, attached alias", () => {
    expect(diff("monitor", desired, { live, prior }).changes).toEqual([]);
  });

  test("a credential read masked is compared by the hash vigil recorded", () => {
    const masked = edited(live, (r) => {
      (r.settings as Record<string, unknown>).password = { set: true, updatedAt: 1000 };
    });
    expect(diff("monitor", desired, { live: masked, prior }).changes).toEqual([]);
    const rotated = edited(desired, (d) => {
      d.settings.password = "pw-new-one";
    });
    const result = diff("monitor", rotated, { live: masked, prior });
    expect(result.changes).toEqual([
      {
        op: "replace",
        path: "/settings/password",
        value: "(sensitive)",
        before: "(sensitive, differs)",
        sensitive: true,
      },
    ]);
    expect(JSON.stringify(result)).not.toContain("pw-new-one");
    expect(JSON.stringify(result)).not.toContain("pw-hunter2");
    // The body carries the credential: it is what the API needs.
    expect(patch("monitor", rotated, result)).toEqual({ settings: { password: "pw-new-one" } });
  });

  test("a credential read in full is compared by its own hash and never shown", () => {
    const changed = edited(live, (r) => {
      r.settings.password = "pw-someone-else";
    });
    const result = diff("monitor", desired, { live: changed, prior });
    expect(result.changes).toEqual([
      {
        op: "replace",
        path: "/settings/password",
        value: "(sensitive)",
        before: "(sensitive, differs)",
        sensitive: true,
        drift: true,
      },
    ]);
    const text = JSON.stringify(result);
    expect(text).not.toContain("pw-someone-else");
    expect(text).not.toContain("pw-hunter2");
    expect(JSON.stringify(prior)).not.toContain("pw-hunter2");
    expect(prior.managed.settings).toMatchObject({ password: "(sensitive)" });
  });

  test("a real change gives the exact field list and a minimal PATCH", () => {
    const next = edited(desired, (d) => {
      d.settings.timeout = 30000;
      d.tags = ["zeta", "alpha", "fixture-t", "beta"];
      d.locations.pools = ["WestEurope"];
    });
    const result = diff("monitor", next, { live, prior });
    expect(result.changes.map((c) => c.path).sort()).toEqual([
      "/locations/pools",
      "/settings/timeout",
      "/tags",
    ]);
    expect(result.changes).toEqual(
      expect.arrayContaining([
        {
          op: "replace",
          path: "/tags",
          value: ["alpha", "beta", "fixture-t", "zeta"],
          before: ["alpha", "fixture-t", "zeta"],
        },
        { op: "replace", path: "/settings/timeout", value: 30000, before: 20000 },
        { op: "replace", path: "/locations/pools", value: ["westeurope"], before: ["allworld"] },
      ]),
    );
    expect(result.replaceReasons).toEqual([]);
    // settings merge (one member), arrays whole (the pools), one added tag rather than the whole set.
    expect(patch("monitor", next, result)).toEqual({
      settings: { timeout: 30000 },
      locations: { pools: ["WestEurope"], fallback: "geo", excludedAgents: ["agent-b", "agent-a"] },
      addTags: ["beta"],
    });
  });
});

describe("monitor http: managed members only", () => {
  test("a managed member changed out of band is drift, and the PATCH restores it", () => {
    const changed = edited(live, (r) => {
      r.settings.timeout = 25000;
      r.slaTarget = 95;
    });
    const result = diff("monitor", desired, { live: changed, prior });
    expect(result.changes).toEqual(
      expect.arrayContaining([
        { op: "replace", path: "/settings/timeout", value: 20000, before: 25000, drift: true },
        { op: "replace", path: "/slaTarget", value: 99.9, before: 95, drift: true },
      ]),
    );
    expect(result.changes).toHaveLength(2);
    expect(patch("monitor", desired, result)).toEqual({ slaTarget: 99.9, settings: { timeout: 20000 } });
  });

  test("a member the user never set is not reverted", () => {
    const changed = edited(live, (r) => {
      r.openStat = true;
      r.settings.accept = "text/html";
    });
    expect(diff("monitor", desired, { live: changed, prior }).changes).toEqual([]);
  });

  test("a member removed from the config is removed only when the live value is not the default", () => {
    const next = edited(desired, (d) => {
      delete (d as Partial<typeof d>).slaTarget;
      delete (d.settings as Partial<typeof d.settings>).timeout;
    });
    const result = diff("monitor", next, { live, prior });
    expect(result.changes).toEqual(
      expect.arrayContaining([
        { op: "remove", path: "/slaTarget", before: 99.9 },
        { op: "remove", path: "/settings/timeout", before: 20000 },
      ]),
    );
    expect(result.changes).toHaveLength(2);
    // null for the removed nullable member and for the removed setting (null clears a settings member).
    expect(patch("monitor", next, result)).toEqual({ slaTarget: null, settings: { timeout: null } });

    const atDefaults = edited(live, (r) => {
      (r as { slaTarget: number | null }).slaTarget = null;
      r.settings.timeout = 40000;
    });
    expect(diff("monitor", next, { live: atDefaults, prior }).changes).toEqual([]);
  });

  test("a list removed from the config is left alone when the live one is already empty: empty equals unset", () => {
    const next = edited(desired, (d) => {
      delete (d.settings as Partial<typeof d.settings>).ignoredStatuses;
    });
    const emptied = edited(live, (r) => {
      r.settings.ignoredStatuses = [];
    });
    expect(diff("monitor", next, { live: emptied, prior }).changes).toEqual([]);
    // Still there: it goes.
    expect(diff("monitor", next, { live, prior }).changes).toEqual([
      { op: "remove", path: "/settings/ignoredStatuses", before: [401, 404] },
    ]);
  });

  test("a removed credential is removed, masked", () => {
    const next = edited(desired, (d) => {
      delete (d.settings as Partial<typeof d.settings>).password;
    });
    const result = diff("monitor", next, { live, prior });
    expect(result.changes).toEqual([
      { op: "remove", path: "/settings/password", before: "(sensitive)", sensitive: true },
    ]);
    expect(JSON.stringify(result)).not.toContain("pw-hunter2");
    expect(patch("monitor", next, result)).toEqual({ settings: { password: null } });
  });

  test("settings dropped from the config entirely still change member by member", () => {
    const bare = { type: "http", url: "https://bare-t.example.com/", settings: { timeout: 20000 } };
    const bareLive = {
      id: "m7",
      type: "http",
      url: "https://bare-t.example.com/",
      settings: { timeout: 20000, method: "G" },
    };
    const { settings: _, ...noSettings } = bare;
    const result = diff("monitor", noSettings, { live: bareLive, prior: applied("monitor", bare) });
    expect(result.changes).toEqual([{ op: "remove", path: "/settings/timeout", before: 20000 }]);
    expect(patch("monitor", noSettings, result)).toEqual({ settings: { timeout: null } });
  });

  test("removing tags sends removeTags when it is smaller than the set", () => {
    const next = edited(desired, (d) => {
      d.tags = ["alpha", "fixture-t"];
    });
    const result = diff("monitor", next, { live, prior });
    expect(result.changes).toEqual([
      { op: "replace", path: "/tags", value: ["alpha", "fixture-t"], before: ["alpha", "fixture-t", "zeta"] },
    ]);
    expect(patch("monitor", next, result)).toEqual({ removeTags: ["zeta"] });
  });

  test("a whole new tag set is sent as tags", () => {
    const next = edited(desired, (d) => {
      d.tags = ["x"];
    });
    const result = diff("monitor", next, { live, prior });
    expect(patch("monitor", next, result)).toEqual({ tags: ["x"] });
  });

  test("ignoreChanges hides a path, dotted or as a pointer", () => {
    const changed = edited(live, (r) => {
      r.settings.timeout = 25000;
      r.interval = 300;
    });
    const lifecycle = { ignoreChanges: ["settings.timeout", "/interval"] };
    expect(diff("monitor", desired, { live: changed, prior, lifecycle }).changes).toEqual([]);
  });

  test("type is immutable and replaceOnChanges paths replace", () => {
    const asApi = edited(desired, (d) => {
      d.type = "api";
    });
    expect(diff("monitor", asApi, { live, prior }).replaceReasons).toEqual(["type cannot change in place"]);

    const moved = edited(desired, (d) => {
      d.url = "https://other-t.example.com/";
    });
    const result = diff("monitor", moved, { live, prior, lifecycle: { replaceOnChanges: ["url"] } });
    expect(result.changes).toEqual([
      { op: "replace", path: "/url", value: "https://other-t.example.com/", before: "http://example-t.com/" },
    ]);
    expect(result.replaceReasons).toEqual(["/url is in replaceOnChanges"]);
    expect(diff("monitor", moved, { live, prior }).replaceReasons).toEqual([]);
  });

  test("a create lists every desired member as an add, credentials masked", () => {
    const result = diff("monitor", desired);
    expect(result.changes.map((c) => c.op)).toEqual(result.changes.map(() => "add"));
    // The settings stay readable; only the credential inside them is masked.
    const settings = result.changes.find((c) => c.path === "/settings")!;
    expect(settings.sensitive).toBeUndefined();
    expect(settings.value).toMatchObject({ password: "(sensitive)" });
    expect(JSON.stringify(result)).not.toContain("pw-hunter2");
  });
});

describe("monitor http assertions", () => {
  const withSource = {
    type: "http",
    url: "https://assert-t.example.com/health",
    settings: { assertMode: true, assertsSource: 'status eq 200\njson[$.status] eq "all good"' },
  };
  const sourceLive = {
    id: "m2",
    type: "http",
    url: "https://assert-t.example.com/health",
    name: "https://assert-t.example.com/health",
    interval: 180,
    enabled: true,
    tags: [],
    state: "up",
    settings: {
      assertMode: true,
      asserts: [
        { source: "status", comparison: "eq", target: "200" },
        { source: "json", property: "$.status", comparison: "eq", target: "all good" },
      ],
      assertsText: 'status eq 200\njson[$.status] eq "all good"',
      forceRecheck: false,
      method: "G",
      timeout: 40000,
    },
  };

  test("assertsSource is input only: compared with what vigil last sent, not with the live row", () => {
    const sourcePrior = applied("monitor", withSource);
    expect(diff("monitor", withSource, { live: sourceLive, prior: sourcePrior }).changes).toEqual([]);
    const next = edited(withSource, (d) => {
      d.settings.assertsSource = "status eq 201";
    });
    const result = diff("monitor", next, { live: sourceLive, prior: sourcePrior });
    expect(result.changes).toEqual([
      {
        op: "replace",
        path: "/settings/assertsSource",
        value: "status eq 201",
        before: 'status eq 200\njson[$.status] eq "all good"',
      },
    ]);
    expect(patch("monitor", next, result)).toEqual({ settings: { assertsSource: "status eq 201" } });
  });
});

describe("monitor types", () => {
  test("tran: the synthesized opening step is not a change", () => {
    const steps = [
      { action: "click", selector: "#login" },
      { action: "wait", waitMs: 500 },
    ];
    const tran = { type: "tran", url: "https://shop-t.example.com/", settings: { steps, timeout: 30000 } };
    const tranLive = {
      id: "m3",
      type: "tran",
      url: "https://shop-t.example.com/",
      interval: 180,
      locations: { pools: ["allworld"], fallback: "starve", excludedAgents: [] },
      settings: {
        steps: [{ action: "navigate", url: "https://shop-t.example.com/", synthesized: true }, ...steps],
        timeout: 30000,
        skipMedia: true,
        finalScreenshot: true,
        consoleError: false,
        expectedConsoleErrors: [],
      },
    };
    const tranPrior = applied("monitor", tran);
    expect(diff("monitor", tran, { live: tranLive, prior: tranPrior }).changes).toEqual([]);
    // Steps are a list: a reorder is a change, sent whole.
    const swapped = edited(tran, (d) => {
      d.settings.steps.reverse();
    });
    const result = diff("monitor", swapped, { live: tranLive, prior: tranPrior });
    expect(result.changes).toEqual([
      { op: "replace", path: "/settings/steps", value: [...steps].reverse(), before: steps },
    ]);
    expect(patch("monitor", swapped, result)).toEqual({ settings: { steps: [...steps].reverse() } });
  });

  test("a fixed-cadence type's interval is the service's: never a change", () => {
    const dnsbl = { type: "dnsbl", url: "dnsbl-t.example.com", interval: 300 };
    const dnsblLive = {
      id: "m4",
      type: "dnsbl",
      url: "dnsbl-t.example.com",
      name: "dnsbl-t.example.com",
      interval: 21600,
      cronSchedule: null,
      enabled: true,
      tags: [],
      settings: {},
    };
    const dnsblPrior = applied("monitor", dnsbl);
    expect(dnsblPrior.managed).not.toHaveProperty("interval");
    expect(diff("monitor", dnsbl, { live: dnsblLive, prior: dnsblPrior }).changes).toEqual([]);
    expect(
      diff("monitor", { ...dnsbl, interval: 60 }, { live: dnsblLive, prior: dnsblPrior }).changes,
    ).toEqual([]);
  });

  test("waterfall: the pageSpeed alias reads back as waterfall", () => {
    const wf = { type: "pageSpeed", url: "https://wf-t.example.com/", settings: { onCpu: 90 } };
    const wfLive = {
      id: "m5",
      type: "waterfall",
      url: "https://wf-t.example.com/",
      interval: 180,
      settings: { onCpu: 90, timeout: 0, deviceEmulation: "Desktop" },
    };
    const wfPrior = applied("monitor", wf);
    expect(diff("monitor", wf, { live: wfLive, prior: wfPrior }).changes).toEqual([]);
    expect(diff("monitor", { ...wf, type: "waterfall" }, { live: wfLive, prior: wfPrior }).changes).toEqual(
      [],
    );
    // No prior: the state was lost, the object is adopted as it is.
    expect(diff("monitor", wf, { live: wfLive }).changes).toEqual([]);
  });

  test("ping: the host is compared lower-cased, as effectiveUrl reads it", () => {
    const ping = { type: "ping", url: "Ping-t.Example.com", settings: { attached: { dnsbl: true } } };
    const pingLive = {
      id: "m6",
      type: "ping",
      url: "Ping-t.Example.com",
      effectiveUrl: "ping-t.example.com",
      name: "Ping-t.Example.com",
      settings: { attached: { dnsbl: { enabled: true } }, publicDns: 0 },
    };
    expect(diff("monitor", ping, { live: pingLive, prior: applied("monitor", ping) }).changes).toEqual([]);
  });
});
