/**
 * Generated descriptions speak English: a kind is "an alert subscription", never "A alert subscription", in
 * every frontend's schema and in the registry docs (all rendered from `kindSentence`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { kindSentence, kinds } from "../src/kinds/index.ts";
import { repositoryRoot } from "../tools/generate.ts";

const files = [
  "provider.json",
  "schemas/pulumi-schema.json",
  ...readdirSync(join(repositoryRoot, "docs/terraform/resources")).map(
    (f) => `docs/terraform/resources/${f}`,
  ),
  ...readdirSync(join(repositoryRoot, "src/pulumi/sdk"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `src/pulumi/sdk/${f}`),
];

it("every kind's sentence takes the article its title's sound needs", () => {
  expect(kindSentence({ title: "Alert subscription", paths: { collection: "/alert" } } as never)).toBe(
    "An alert subscription (/alert).",
  );
  expect(kindSentence({ title: "Monitor", paths: { collection: "/monitor" } } as never)).toBe(
    "A monitor (/monitor).",
  );
  for (const file of files) {
    const text = readFileSync(join(repositoryRoot, file), "utf8");
    expect(text, file).not.toMatch(/\bA [aeiou]\w* (subscription|window|page|group|template)\b/i);
    for (const kind of kinds)
      if (
        /^[aeiou]/i.test(kind.title) &&
        text.includes(`${kind.title.toLowerCase()} (${kind.paths.collection})`)
      )
        expect(text, file).toContain(kindSentence(kind));
  }
});
