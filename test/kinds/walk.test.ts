import { describe, expect, it } from "vitest";
import { z } from "zod";
import { monitorTypesResult } from "../../src/kinds/data-sources.ts";
import {
  type AttributeNode,
  alertSubscriptionKind,
  computedTree,
  configExcludedMembers,
  credentialPatterns,
  descriptionText,
  field,
  inputSchemaOf,
  kinds,
  monitorKind,
  resourceTree,
  shapeOf,
  statusPageKind,
  stepInto,
  webhookKind,
} from "../../src/kinds/index.ts";

const named = (nodes: readonly AttributeNode[], ...path: string[]): AttributeNode => {
  let node: AttributeNode | undefined;
  let level = nodes;
  for (const name of path) {
    node = level.find((a) => a.name === name);
    if (!node) throw new Error(`no attribute ${path.join(".")}`);
    level = node.type.kind === "object" ? node.type.attributes : [];
  }
  return node!;
};

describe("shapeOf", () => {
  it("peels wrappers and says what a schema is", () => {
    expect(shapeOf(z.string().optional().nullable()).type).toBe("string");
    expect(shapeOf(z.uuid().default("x" as never)).type).toBe("string");
    expect(shapeOf(z.number().int())).toEqual({ type: "number", integer: true });
    expect(shapeOf(z.number())).toEqual({ type: "number", integer: false });
    expect(shapeOf(z.enum(["a", "b"]))).toEqual({ type: "values", values: ["a", "b"], enum: true });
    expect(shapeOf(z.literal(true))).toEqual({ type: "values", values: [true], enum: false });
    expect(shapeOf(z.string().pipe(z.transform((s) => s.length))).type).toBe("string");
    const both = shapeOf(z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })));
    expect(both.type === "union" && both.options.length).toBe(2);
  });

  it("steps into members, items and values through unions, own members only", () => {
    const schema = z.union([
      z.object({ list: z.array(z.string()) }),
      z.object({ map: z.record(z.string(), z.number()) }),
    ]);
    expect(stepInto([schema], "list").map((s) => shapeOf(s).type)).toEqual(["array"]);
    expect(stepInto(stepInto([schema], "map"), "*").map((s) => shapeOf(s).type)).toEqual(["number"]);
    expect(stepInto([schema], "__proto__")).toEqual([]);
    expect(stepInto([schema], "toString")).toEqual([]);
  });
});

describe("inputSchemaOf", () => {
  it("holds the create body, the side members, and none of the members configs never write", () => {
    const monitor = Object.keys(inputSchemaOf(monitorKind).shape);
    expect(monitor).toContain("type");
    for (const excluded of configExcludedMembers(monitorKind)) expect(monitor).not.toContain(excluded);
    expect(monitor).not.toContain("id");
    expect(Object.keys(inputSchemaOf(statusPageKind).shape)).toContain("components");
  });

  it("types a variant member by the members given", () => {
    const http = inputSchemaOf(monitorKind, { type: "http" });
    const settings = shapeOf(http.shape.settings as z.ZodType);
    expect(settings.type === "object" && Object.keys(settings.members)).toContain("password");
    expect(shapeOf(inputSchemaOf(monitorKind).shape.settings as z.ZodType).type).toBe("record");
  });
});

describe("the attribute tree", () => {
  it("says what a config sets, what the service sets, credentials and replacements", () => {
    const tree = resourceTree(webhookKind);
    expect(named(tree.attributes, "url").presence).toBe("required");
    expect(named(tree.attributes, "id").presence).toBe("computed");
    expect(named(tree.attributes, "secret")).toMatchObject({ presence: "optional", writeOnly: true });
    expect(named(tree.attributes, "headers", "value")).toMatchObject({
      presence: "required",
      writeOnly: true,
    });
    expect(named(tree.attributes, "generatedSecret")).toMatchObject({
      presence: "computed",
      writeOnly: true,
    });
    expect(tree.rules.sensitive).toEqual([["headers", "*", "value"], ["secret"]]);
    expect(tree.rules.generated).toEqual([{ member: "secret", output: "generatedSecret" }]);
    expect(resourceTree(alertSubscriptionKind).rules.replaceOn).toEqual([["monitorId"], ["contactId"]]);
  });

  it("lists attributes in the order of their words", () => {
    const names = resourceTree(monitorKind).attributes.map((a) => a.name);
    const words = names.map((n) => n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    expect(words).toEqual([...words].sort());
  });

  it("merges a variant member over its variants, each member naming the variants that take it", () => {
    const tree = resourceTree(monitorKind);
    const settings = named(tree.attributes, "settings");
    expect(settings.description.text).toBe(monitorKind.variants?.description);
    const password = named(tree.attributes, "settings", "password");
    expect(password.writeOnly).toBe(true);
    expect(password.description.variants?.all).toEqual(expect.arrayContaining(["http", "api", "database"]));
    expect(descriptionText(password.description, (k) => k)).toMatch(/Types: .*http/);
    expect(tree.rules.sensitive).toContainEqual(["settings", "password"]);
    expect(named(tree.attributes, "type").replaces).toBe(true);
    expect(named(tree.attributes, "type").type).toMatchObject({ kind: "scalar", scalar: "string" });
  });

  it("leaves naming another kind to the frontend", () => {
    const contactId = named(resourceTree(alertSubscriptionKind).attributes, "contactId");
    expect(contactId.description.references).toBe("contact");
    expect(descriptionText(contactId.description, (k) => `vigil_${k}`)).toContain(
      "The id of a vigil_contact",
    );
    expect(descriptionText(contactId.description, (k) => k.toUpperCase())).toContain("The id of a CONTACT");
  });

  it("makes every attribute of a read-only result computed, with integers and enums known", () => {
    const tree = computedTree(monitorTypesResult);
    const walk = (nodes: readonly AttributeNode[]): AttributeNode[] =>
      nodes.flatMap((n) => [n, ...(n.type.kind === "object" ? walk(n.type.attributes) : [])]);
    expect(walk(tree).every((a) => a.presence === "computed")).toBe(true);
    expect(walk(tree).length).toBeGreaterThan(5);
  });

  it("refuses a variant member whose variants disagree on a member's type", () => {
    const broken = {
      ...monitorKind,
      variants: {
        discriminator: "type",
        member: "settings",
        schemas: { a: z.object({ x: z.string() }), b: z.object({ x: z.number() }) },
      },
    };
    expect(() => resourceTree(broken)).toThrow(/settings\.x has different types across types/);
  });
});

describe("credentials", () => {
  const credentialWords = /password|secret|token|community|connectionString|authKey|privKey/i;

  /** Every member path of a schema whose name says it holds a credential, and every configured header value. */
  function credentialLike(schema: z.ZodType, at: string[] = [], depth = 0): string[][] {
    if (depth > 12) return [];
    const shape = shapeOf(schema);
    if (shape.type === "union") return shape.options.flatMap((o) => credentialLike(o, at, depth + 1));
    if (shape.type === "array") return credentialLike(shape.element, [...at, "*"], depth + 1);
    if (shape.type === "record") return credentialLike(shape.value, [...at, "*"], depth + 1);
    if (shape.type !== "object") return [];
    return Object.entries(shape.members).flatMap(([name, member]) => {
      const path = [...at, name];
      const header = name === "value" && /headers$/i.test(at.at(-2) ?? "");
      const here = (credentialWords.test(name) && shapeOf(member).type !== "boolean") || header ? [path] : [];
      return [...here, ...credentialLike(member, path, depth + 1)];
    });
  }

  it("marks every credential of every kind and variant writeOnly, header values included", () => {
    const schemas: [string, z.ZodType][] = kinds.flatMap((k) => [
      [k.name, inputSchemaOf(k)] as [string, z.ZodType],
      ...Object.entries(k.variants?.schemas ?? {}).map(
        ([v, s]) => [`${k.name}/${v}`, s] as [string, z.ZodType],
      ),
    ]);
    const missing: string[] = [];
    let found = 0;
    for (const [name, schema] of schemas) {
      const patterns = credentialPatterns(schema).map((p) => p.join("/"));
      for (const path of credentialLike(schema)) {
        found++;
        if (!patterns.includes(path.join("/"))) missing.push(`${name}: ${path.join("/")}`);
      }
    }
    expect(found).toBeGreaterThan(8);
    expect(missing).toEqual([]);
  });

  it("finds a credential declared on a refined copy of a shared schema", () => {
    const shared = field(z.string(), { writeOnly: true });
    expect(credentialPatterns(z.object({ a: shared.max(5) }))).toEqual([["a"]]);
  });
});
