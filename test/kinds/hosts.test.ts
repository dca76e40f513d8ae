import { isIP } from "node:net";
import { expect, it } from "vitest";
import { isHost, isIpLiteral } from "../../src/kinds/common.ts";

/**
 * `isIpLiteral` answers names without `net.isIP` (whose IPv6 pattern compiles on first use, a cost of every
 * `vigil validate`): it must answer exactly as `net.isIP` does, names and addresses alike.
 */
it("isIpLiteral agrees with net.isIP on addresses, names and near misses", () => {
  const cases = [
    "127.0.0.1",
    "10.0.0.255",
    "1.2.3",
    "256.1.1.1",
    "01.2.3.4",
    "::1",
    "::",
    "fe80::1",
    "::ffff:192.0.2.1",
    "2001:db8::1",
    "2001:db8:::1",
    "[::1]",
    "fe80::1%eth0",
    "example.com",
    "localhost",
    "1.2.3.4.example.com",
    "",
    ".",
    "a:b",
  ];
  for (const text of cases) expect(isIpLiteral(text), text).toBe(isIP(text) !== 0);
});

it("isHost takes IP literals, dotted names and localhost, not a bare label", () => {
  expect(["192.0.2.1", "::1", "api.example.com", "localhost"].map(isHost)).toEqual([true, true, true, true]);
  expect(["intranet", "", "exa mple.com", "-x.example.com"].map(isHost)).toEqual([
    false,
    false,
    false,
    false,
  ]);
});
