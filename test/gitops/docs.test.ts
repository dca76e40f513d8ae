/**
 * The per-kind reference (docs/gitops/<kind>.md) is enough to write the YAML: it names every member the
 * JSON Schema accepts, every monitor type with every setting of that type, and its examples are valid files. (test/generate.test.ts keeps the committed pages equal to what the kinds render.)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { vigilJsonSchema } from "../../src/gitops/json-schema.ts";
import { monitorTypeAliases, monitorTypeNames } from "../../src/kinds/index.ts";
import { repositoryRoot } from "../../tools/generate.ts";
import { documentedKinds, gitopsDocPages, pagePath } from "../../tools/gitops/docs.ts";

type Node = Record<string, any>;
const defs = vigilJsonSchema().$defs as Record<string, Node>;
const pages = new Map(gitopsDocPages().map((p) => [p.path, p.render()]));
const page = (path: string) => pages.get(path)!;

/** The member column of every table row of a page section. */
const documented = (text: string) => new Set([...text.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!));

/** Every member path of a schema as the pages write it: dots for maps, `[]` for list items. */
function memberPaths(node: Node | undefined, at = ""): string[] {
  if (!node) return [];
  const resolved = node.$ref ? defs[node.$ref.replace("#/$defs/", "")] : node;
  if (!resolved || resolved === defs.contactName || resolved === defs.monitorName) return [];
  const options: Node[] = (resolved.anyOf ?? resolved.oneOf ?? [resolved]).filter(
    (o: Node) => o.type !== "null",
  );
  const out: string[] = [];
  for (const option of options) {
    if (option.type === "array") out.push(...memberPaths(option.items, `${at}[]`));
    for (const [member, child] of Object.entries((option.properties ?? {}) as Record<string, Node>)) {
      if (member === "lifecycle") continue;
      out.push(`${at}${at ? "." : ""}${member}`.replace(".[]", "[]").replace("[].", "[]."));
      if (member !== "settings") out.push(...memberPaths(child, `${at}${at ? "." : ""}${member}`));
    }
  }
  return out.map((p) => p.replace(/\.\[\]/g, "[]"));
}

describe("the per-kind reference", () => {
  it("has a page for every kind a file declares, each linked from docs/gitops.md and the index", () => {
    const guide = readFileSync(join(repositoryRoot, "docs/gitops.md"), "utf8");
    for (const kind of documentedKinds) {
      expect(pages.has(pagePath(kind)), kind).toBe(true);
      expect(guide).toContain(`](gitops/${kind}.md)`);
      expect(page("docs/gitops/index.md")).toContain(`](${kind}.md)`);
    }
  });

  it.each(documentedKinds)(
    "%s: documents every member the JSON Schema accepts, nested as in YAML",
    (kind) => {
      const rows = documented(
        page(pagePath(kind)).split("## Set by the service")[0]!.split("## Monitor types")[0]!,
      );
      const expected = memberPaths(defs[kind]);
      expect(expected.length).toBeGreaterThan(0);
      for (const path of expected) expect(rows, `${kind}: ${path}`).toContain(path);
    },
  );

  it("monitor: every type, with its aliases and every setting it takes, under a heading of its own", () => {
    const text = page(pagePath("monitor"));
    for (const type of monitorTypeNames) {
      const names = [type, ...Object.keys(monitorTypeAliases).filter((a) => monitorTypeAliases[a] === type)];
      const heading = `### ${names.join(", ")}\n`;
      expect(text).toContain(heading);
      const section = text.split(heading)[1]!.split("\n### ")[0]!;
      const settings = memberPaths(defs[`${type}Settings`]).map((p) => `settings.${p}`);
      expect(documented(section)).toEqual(new Set(settings));
      expect(text).toMatch(new RegExp(`^\\| ${names.map((n) => `\`${n}\``).join(", ")} \\|`, "m"));
    }
  });

  it("states the traits: required, defaults, allowed values, credentials, replacement, natural key", () => {
    const monitor = page(pagePath("monitor"));
    expect(monitor).toMatch(
      /^\| `type` \| string \| yes \|.*one of `"http"`.*Changing it replaces the object/m,
    );
    expect(monitor).toMatch(/^\| `interval` \| integer \| {2}\| `180` \|/m);
    expect(monitor).toMatch(/^\| `settings.password` \|.*\*\*Credential\*\*/m);
    expect(monitor).toContain("**Natural key**: `type` + `url`");
    expect(monitor).toMatch(/^- `certNotBefore` /m);
    expect(page(pagePath("maintenance"))).toMatch(/^\| `from` \| time \|.*ISO 8601/m);
    expect(page(pagePath("alertSubscription"))).toMatch(/^\| `contact` \| name of a contact \| yes \|/m);
  });

  it("lists what the service sets inside a variant too: the read-only settings the spec names", () => {
    const monitor = page(pagePath("monitor"));
    expect(monitor).toMatch(/^- `settings\.assertsText` \(string; type http, api\): The rules of `asserts`/m);
    expect(monitor).toMatch(/^- `settings\.forceRecheck` \(boolean; type http, api\): /m);
  });

  it("says what keywordAny does as the spec defines it, against what its name suggests", () => {
    const row = page(pagePath("monitor")).match(/^\| `settings\.keywordAny` \|.*$/m)?.[0];
    expect(row).toContain("Despite its name, true needs every keyword and false (the default) any one");
    expect(row).toContain("the check fails when any keyword is missing (true) or none is found (false)");
  });

  it("shows examples that are valid files of the format", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    const validate = ajv.compile(vigilJsonSchema());
    const examples = [...pages.values()].flatMap((text) =>
      [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!),
    );
    // One per kind at least, and one per monitor type the examples repository shows.
    expect(examples.length).toBeGreaterThan(documentedKinds.length);
    for (const example of examples) {
      expect(validate(parse(example)), `${example}\n${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
