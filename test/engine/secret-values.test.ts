/**
 * `SecretValues`, the one redaction every message passes (issue 25, point 7): what it finds of a secret in
 * free text, and what it leaves alone. The flows that use it are scanned end to end in
 * test/secret-scan-refusals.test.ts; here the engine's own entry points are held to it too.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ApiError } from "../../src/api/index.ts";
import {
  AccountCheckError,
  applyChanges,
  type DesiredResource,
  MemoryStateStore,
  planChanges,
  SecretValues,
  secretValuesOf,
} from "../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { engineAccount, httpMonitor } from "./e2e/helpers.ts";

const token = "TOPSECRET-TOKEN-123";
const url = `https://x.blocked.test/?token=${token}`;

describe("SecretValues.redact", () => {
  const secrets = new SecretValues([token, url, "ab", 'q"uote\\d', "Pool-Secret"]);

  test("a secret anywhere in a text, in any case, as JSON and URLs carry it", () => {
    expect(secrets.redact(`url: got "${url}"`)).toBe('url: got "(sensitive)"');
    expect(secrets.redact(`token ${token.toLowerCase()} here`)).toBe("token (sensitive) here");
    expect(secrets.redact(JSON.stringify({ v: 'q"uote\\d' }))).toBe('{"v":"(sensitive)"}');
    expect(secrets.redact(`?v=${encodeURIComponent('q"uote\\d')}`)).toBe("?v=(sensitive)");
  });

  test("an echo cut short keeps no head of a secret", () => {
    expect(secrets.redact(`got "${url.slice(0, 40)}…"`)).toBe('got "(sensitive)"');
    expect(secrets.redact(`and ${token.slice(0, 6)}… then`)).toBe("and (sensitive) then");
    // Too short a head to be one, and the list's own ellipsis: left as they are.
    expect(secrets.redact("allowed: a, b, … (45 in all); TOP…")).toBe("allowed: a, b, … (45 in all); TOP…");
  });

  test("a short secret only as a whole string: it would mask line numbers and words anywhere else", () => {
    expect(secrets.redact('got "ab"; abc at line 1')).toBe('got "(sensitive)"; abc at line 1');
    expect(secrets.redactValue({ value: "ab", n: 12 })).toEqual({ value: "(sensitive)", n: 12 });
  });

  test("a value spelled as a JSON number or literal only as a whole string: a --json document stays JSON", () => {
    const literals = new SecretValues(["3600", "true", "36000"]);
    const document = JSON.stringify({ interval: 3600, enabled: true, name: "3600", id: 136000 });
    expect(JSON.parse(literals.redact(document))).toEqual({
      interval: 3600,
      enabled: true,
      name: "(sensitive)",
      id: 136000,
    });
  });

  test("redacting twice changes nothing; a plan's own masks stay", () => {
    const once = secrets.redact(`${url} (sensitive, differs) (sensitive)`);
    expect(once).toBe("(sensitive) (sensitive, differs) (sensitive)");
    expect(secrets.redact(once)).toBe(once);
    expect(new SecretValues(["sensitive"]).redact("(sensitive)")).toBe("(sensitive)");
  });

  test("values keep where they are (address, pointer) and lose what was written", () => {
    const diagnostic = {
      address: "monitors.pool-secret",
      pointer: "/x",
      message: "Pool-Secret is not a pool",
    };
    expect(secrets.redactValue(diagnostic)).toEqual({ ...diagnostic, message: "(sensitive) is not a pool" });
  });

  test("an error keeps its class; its words are redacted, the data it carries is not", () => {
    const error = new ApiError({
      status: 422,
      body: { code: "unknown_pool", detail: `${token} unknown`, errors: [{ pointer: "/p", value: token }] },
      headers: {},
      route: "POST /monitor",
      attempts: 1,
    });
    const state = { url };
    Object.assign(error, { state });
    const redacted = secrets.redactError(error);
    expect(redacted).toBe(error);
    expect(redacted).toBeInstanceOf(ApiError);
    expect(
      JSON.stringify([error.message, error.stack, error.problem, error.errors, error.detail]),
    ).not.toContain(token);
    expect(error.description.members).toEqual([{ pointer: "/p", message: 'got "(sensitive)"' }]);
    expect((error as unknown as { state: unknown }).state).toEqual({ url });
    const wrapped = new Error("outer", { cause: new Error(`inner ${token}`) });
    expect(String((secrets.redactError(wrapped).cause as Error).message)).toBe("inner (sensitive)");
  });

  test("a kept text (a file's name) stays whole; a secret longer than it is masked whole", () => {
    const kept = new SecretValues(["platform", "monitors/web.yaml-TOKEN-9"])
      .keep("monitors/platform.yaml")
      .keep("monitors/web.yaml");
    expect(kept.redact("at monitors/platform.yaml:4: got platform")).toBe(
      "at monitors/platform.yaml:4: got (sensitive)",
    );
    expect(kept.redact("monitors/web.yaml and monitors/web.yaml-token-9")).toBe(
      "monitors/web.yaml and (sensitive)",
    );
    // The guard adds what the loader kept, kept texts included.
    expect(new SecretValues().addAll(kept).redact("monitors/PLATFORM.yaml platform")).toBe(
      "monitors/PLATFORM.yaml (sensitive)",
    );
  });

  // About 1 s on a loaded machine; the bound keeps a tenfold margin (a quadratic redaction takes minutes).
  test("1000 secrets over 1.8 MB of text with 20,000 ellipses: within 10 s", () => {
    const many = new SecretValues(Array.from({ length: 1000 }, (_, i) => `secret-${i}-${i * 7919}`));
    const text = 'monitors.web url: got "https://example.com/health" and then some words …\n'.repeat(20_000);
    const started = performance.now();
    many.redact(text);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

test("the secrets of desired resources: their credentials and the members marked sensitive", () => {
  const monitor = httpMonitor("web", url, { settings: { username: "probe", password: "pw-Zq8xT3mK" } });
  const secrets = secretValuesOf([{ ...monitor, sensitive: ["/url"] }]);
  expect(secrets.redact(`${url} pw-Zq8xT3mK probe`)).toBe("(sensitive) (sensitive) probe");
});

describe("the engine's entry points say no secret", { timeout: 60_000 }, () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(async () => {
    await sb?.close();
  });

  test("a plan the account would refuse: the refusal names the member, not the value", async () => {
    const { ops, time } = await engineAccount(sb);
    const pool = "Secret-Pool-9e1";
    const desired = [
      {
        ...httpMonitor("web", "https://ok.example.com/", { locations: { pools: [pool] } }),
        sensitive: ["/locations/pools/0"],
      },
    ];
    const error = await planChanges({ ops, store: new MemoryStateStore(), desired, time }).catch((e) => e);
    expect(error).toBeInstanceOf(AccountCheckError);
    const refusal = (error as AccountCheckError).diagnostics;
    expect(refusal.map((d) => d.code)).toEqual(["unknown_pool"]);
    expect(JSON.stringify(refusal)).not.toContain(pool);
    expect((error as Error).message).not.toContain(pool);
  });

  test("apply's failures (one call's, a bulk job's items) and progress say no secret", async () => {
    const { ops, time } = await engineAccount(sb);
    const messages: string[] = [];
    for (const count of [1, 3]) {
      const desired = Array.from({ length: count }, (_, i) => ({
        ...httpMonitor(`m${count}-${i}`, `https://m${i}.blocked.test/?token=${token}`),
        sensitive: ["/url"],
      }));
      const { result } = await applyChanges({
        ops,
        store: new MemoryStateStore(),
        desired,
        time,
        secrets: new SecretValues([token]),
        onProgress: (event) => messages.push(event.message ?? ""),
      });
      expect(result.failures.map((f) => f.problem?.code)).toEqual(Array(count).fill("url_blacklisted"));
      messages.push(JSON.stringify(result));
    }
    expect(messages.join("\n")).not.toContain(token);
    expect(messages.join("\n")).toContain('"value":"(sensitive)"');
  });
});

test("a credential written in a file whose text the config writes openly too is masked where it sits only", () => {
  const header = (value: string) => ({ settings: { headers: [{ name: "X-Team", value }] } });
  // Read from a file, as the GitOps loader's resources are.
  const fromFile = (r: DesiredResource): DesiredResource => ({ ...r, source: { file: "m.yaml", line: 2 } });
  const team = fromFile(httpMonitor("team", "https://team.example.com/", header("platform")));
  const tagged = fromFile(
    httpMonitor("edge", "https://edge.example.com/", { tags: ["Platform", "network"] }),
  );
  const named = fromFile(
    httpMonitor("shop", "https://shop.example.com/", { name: "Shop on application/json" }),
  );
  const typed = fromFile(httpMonitor("api", "https://api.example.com/", header("application")));
  const secret = fromFile(httpMonitor("own", "https://own.example.com/", header("tok-Vb3Nq8Lm")));
  const secrets = secretValuesOf([team, tagged, named, typed, secret]);
  // Equal to a tag (in any case), or inside another member's value: searching for it would mask those.
  expect(secrets.redact('tags: ["Platform"], got "platform", name "Shop on application/json"')).toBe(
    'tags: ["Platform"], got "platform", name "Shop on application/json"',
  );
  // Written nowhere else: still searched for everywhere.
  expect(secrets.redact('got "tok-Vb3Nq8Lm"')).toBe('got "(sensitive)"');
  // From the environment (marked sensitive), it is searched for whatever else the config writes.
  const fromEnv = secretValuesOf([{ ...team, sensitive: ["/settings/headers/0/value"] }, tagged]);
  expect(fromEnv.redact('tags: ["platform"]')).toBe('tags: ["(sensitive)"]');
  // A provider's resources (no file) may hold a sensitive variable in any member: always searched for.
  const { source: _, ...provided } = team;
  expect(secretValuesOf([provided, tagged]).redact('got "platform"')).toBe('got "(sensitive)"');
});
