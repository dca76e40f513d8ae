import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addressRefusal,
  checkedLookup,
  checkUrl,
  DestinationRefused,
} from "../../../../src/sandbox/resources/webhooks/destination.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../../helpers/sandbox.ts";

/** SSRF rules of webhook destinations (issue 16, point 16): an address is judged by what it reaches. */
let sb: TestSandbox;
let c: Client;
beforeAll(async () => {
  sb = await startTestSandbox();
  c = await sb.account();
});
afterAll(() => sb.close());

const strict = { allowLoopback: false };
const hook = (url: string) => c.post("/webhook", { url, events: ["monitor.down"], scope: { all: true } });

describe("through the API", () => {
  const refused: [string, RegExp][] = [
    ["https://[::127.0.0.1]/x", /IPv4-compatible address of 127\.0\.0\.1, a loopback address/],
    ["https://[::ffff:0:7f00:1]/x", /IPv4-translated address of 127\.0\.0\.1, a loopback address/],
    ["https://[::ffff:127.0.0.1]/x", /IPv4-mapped address of 127\.0\.0\.1, a loopback address/],
    ["https://[64:ff9b::7f00:1]/x", /NAT64 address of 127\.0\.0\.1/],
    ["https://[64:ff9b::a9fe:a9fe]/x", /NAT64 address of 169\.254\.169\.254, a cloud metadata address/],
    ["https://[64:ff9b:1::808:808]/x", /local-use NAT64/],
    ["https://[2002:7f00:1::]/x", /6to4 address of 127\.0\.0\.1/],
    ["https://[2002:a00:1::1]/x", /6to4 address of 10\.0\.0\.1, a private address/],
    // Teredo client 192.168.0.1 stored inverted (3f57:fffe); server 8.8.8.8 is public.
    ["https://[2001:0:808:808::3f57:fffe]/x", /Teredo address \(client\) of 192\.168\.0\.1/],
    ["https://198.18.0.1/x", /benchmarking/],
    ["https://198.19.255.255/x", /benchmarking/],
    ["https://192.0.0.8/x", /IETF protocol assignment/],
    ["https://240.0.0.1/x", /reserved/],
    ["https://255.255.255.255/x", /broadcast/],
    ["https://192.0.2.1/x", /documentation/],
    ["https://[2001:db8::1]/x", /documentation/],
    ["https://[::2]/x", /IPv4-compatible address of 0\.0\.0\.2, an unspecified address/],
    ["https://[100::1]/x", /discard-only/],
    ["https://[fec0::1]/x", /site-local/],
    ["https://[4000::1]/x", /not a global unicast address/],
    ["https://instance-data.ec2.internal/latest/meta-data", /cloud metadata service/],
    ["https://instance-data/latest/meta-data", /cloud metadata service/],
    ["https://metadata.google.internal./computeMetadata/v1/", /cloud metadata service/],
    ["https://db.internal/x", /private-use name \(\.internal\)/],
    ["https://printer.local/x", /private-use name \(\.local\)/],
    ["https://router.home.arpa/x", /private-use name/],
    ["https://intranet-host/x", /single-label name/],
    ["https://hooks.example.com:0/x", /Port 0/],
  ];
  it("refuses each form that reaches a refused address with destination_not_allowed", async () => {
    for (const [url, message] of refused) {
      const res = await hook(url);
      expect(res.status, url).toBe(422);
      expect(res.body.code, url).toBe("invalid_url");
      expect(res.body.errors[0], url).toMatchObject({ pointer: "/url", reason: "destination_not_allowed" });
      expect(res.body.detail, url).toMatch(message);
    }
  });

  it("takes public addresses, in IPv4 and in every IPv6 form that embeds one", async () => {
    for (const url of [
      "https://8.8.8.8/x",
      "https://[2606:4700::1111]/x",
      "https://[::ffff:8.8.4.4]/x",
      "https://[64:ff9b::101:101]/x",
      "https://[2002:808:808::1]/x",
      "https://[2001:0:808:808::f7f7:f7f7]/x",
      "https://hooks.example.com:8443/x",
      "https://192.0.1.1/x",
      "https://198.20.0.1/x",
    ]) {
      expect((await hook(url)).status, url).toBe(201);
    }
  });
});

describe("--allow-insecure-webhooks keeps loopback open to tests, and only loopback", () => {
  const insecure = { allowLoopback: true };
  it("allows loopback in any spelling, over http too", () => {
    for (const url of [
      "http://127.0.0.1:8080/x",
      "http://[::1]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://localhost:1/x",
    ])
      expect(checkUrl(url, insecure).href, url).toBe(new URL(url).href);
  });
  it("still refuses the rest", () => {
    expect(addressRefusal("10.0.0.1", insecure)).toBe("a private address");
    expect(addressRefusal("64:ff9b::a00:1", insecure)).toBe("a NAT64 address of 10.0.0.1, a private address");
    expect(() => checkUrl("https://instance-data.ec2.internal/", insecure)).toThrow(DestinationRefused);
  });
});

describe("names resolved at send time", () => {
  // The sender prefixes "destination not allowed:" (send.ts); the lookup's own message must not repeat it.
  it("refuses a name that resolves to loopback, saying what it found and nothing twice", async () => {
    const error = await new Promise<Error | null>((resolve) =>
      checkedLookup(strict)("localhost", {}, (e) => resolve(e)),
    );
    expect(error).toBeInstanceOf(DestinationRefused);
    expect(error!.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address\.$/);
    expect(error!.message).not.toMatch(/not allowed/);
  });
});
