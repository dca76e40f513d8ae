/**
 * The reference's examples (tools/gitops/docs.ts): the first resource of each kind (and of each variant) in
 * examples/gitops, written as a file would hold it alone, so every example is a configuration that loads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Document, isSeq, parse, visit } from "yaml";
import { engineKind } from "../../src/engine/kinds/index.ts";
import type { KindName } from "../../src/engine/model.ts";
import { nestedIn, nestingOf, sectionOf } from "../../src/gitops/format.ts";

const examplesDir = "examples/gitops";
const repositoryRoot = join(import.meta.dirname, "../..");

// ---------------------------------------------------------------------------
// Examples, from examples/gitops

interface ExampleSource {
  file: string;
  data: Record<string, unknown>;
}

function exampleSources(): ExampleSource[] {
  const dir = join(repositoryRoot, examplesDir);
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => /\.ya?ml$/.test(f) && !f.split(/[\\/]/).some((part) => part.startsWith(".")))
    .sort()
    .map((f) => ({
      file: relative(repositoryRoot, join(dir, f)),
      data: (parse(readFileSync(join(dir, f), "utf8")) ?? {}) as Record<string, unknown>,
    }));
}

type Entries = [string, Record<string, unknown>][];
const entriesOf = (value: unknown): Entries =>
  typeof value === "object" && value !== null ? (Object.entries(value) as Entries) : [];

/** YAML as the examples write it: short lists of plain values on one line. */
function yamlText(value: unknown): string {
  const doc = new Document(value);
  visit(doc, {
    Seq(_, node) {
      if (isSeq(node) && node.items.every((i) => !(typeof i === "object" && i !== null && "items" in i)))
        node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** The first resource of a kind in the examples (of a variant: a monitor of a type), as a file would hold it alone. */
function example(kind: KindName, variant?: string): { file: string; text: string } | undefined {
  const nested = nestingOf(kind);
  const section = sectionOf(nested ? nested.parent : kind);
  const discriminator = engineKind(kind).definition.variants?.discriminator;
  for (const source of exampleSources()) {
    for (const [name, resource] of entriesOf(source.data[section])) {
      if (variant && discriminator && resource[discriminator] !== variant) continue;
      if (nested) {
        const entries = resource[nested.member];
        // The first entry alone: a list's first item, or a map's first name (a kind with names of its own).
        const first = Array.isArray(entries)
          ? entries.slice(0, 1)
          : Object.fromEntries(entriesOf(entries).slice(0, 1));
        if (Object.keys(first).length === 0) continue;
        const siblings = new Set(nestedIn(nested.parent).map((n) => n.member));
        const parent = Object.fromEntries(
          Object.entries(resource).filter(([member]) => !siblings.has(member)),
        );
        const only = { [section]: { [name]: { ...parent, [nested.member]: first } } };
        return { file: source.file, text: yamlText(only) };
      }
      return { file: source.file, text: yamlText({ [section]: { [name]: resource } }) };
    }
  }
  return undefined;
}

export function exampleSection(kind: KindName, heading: string, variant?: string): string[] {
  const found = example(kind, variant);
  if (!found) return [];
  return [
    heading,
    "",
    `From [${found.file}](../../${found.file}):`,
    "",
    "```yaml",
    found.text.trimEnd(),
    "```",
    "",
  ];
}
