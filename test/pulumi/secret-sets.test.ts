/**
 * A secret item of a set, in Pulumi (issue 25, point 6): the service keeps no order in a set, so the item
 * the program made a secret may come back at another place. The outputs make the whole set a secret, as
 * the CLI masks it whole, rather than wrap whatever value sits at the item's old place.
 */
import { expect, test } from "vitest";
import { resourceKind } from "../../src/pulumi/provider/resources.ts";
import { isSecret, secret, unwrapSecrets } from "../../src/pulumi/provider/values.ts";

const hidden = "aaa-SECRET-tag-5c1e";

test("a set holding a secret item goes out as one secret, whatever order the service answers", () => {
  const kind = resourceKind("vigil:index:Monitor");
  const inputs = {
    type: "http",
    url: "https://ok.example.com/",
    tags: ["zzz-literal", secret(hidden)],
    locations: { pools: ["westeurope"] },
  };
  const given = unwrapSecrets(inputs);
  expect(given.secrets).toEqual(["/tags/1"]);
  // The service answers the set sorted: the secret is first now.
  const row = {
    id: "m1",
    type: "http",
    url: "https://ok.example.com/",
    tags: [hidden, "zzz-literal"],
    locations: { pools: ["westeurope"] },
    created: 1,
    updated: 1,
  };
  const outputs = kind.outputs(row, given.members, given.secrets);
  expect(isSecret(outputs.tags)).toBe(true);
  expect((outputs.tags as { value: unknown }).value).toEqual([hidden, "zzz-literal"]);
  // Outside Pulumi's encrypted secrets, nothing holds it.
  const plain = JSON.stringify(outputs, (_k, v) => (isSecret(v) ? "[secret]" : v));
  expect(plain).not.toContain(hidden);
});
