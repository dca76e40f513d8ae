/**
 * What deriving every frontend's schema from the kinds costs (issue 18): the attribute trees of the managed
 * kinds (`resourceTree`), then the Terraform provider schema, the Pulumi package schema and the GitOps JSON
 * Schema rendered from them. The providers build their schemas when they first serve one, so this is CPU
 * time at start-up; no API calls.
 *
 *   npm run bench:schemas
 *
 * Prints, for a cold process, the milliseconds each step takes and how many attributes the trees hold.
 */
import { performance } from "node:perf_hooks";
import { vigilJsonSchema } from "../src/gitops/json-schema.ts";
import { type AttributeNode, kinds, resourceTree } from "../src/kinds/index.ts";
import { pulumiSchema } from "../src/pulumi/schema.ts";
import { providerSchema } from "../src/terraform/schema.ts";

function timed<T>(label: string, run: () => T): T {
  const started = performance.now();
  const result = run();
  console.log(`${label.padEnd(28)} ${(performance.now() - started).toFixed(1).padStart(8)} ms`);
  return result;
}

const count = (nodes: readonly AttributeNode[]): number =>
  nodes.reduce((n, a) => n + 1 + (a.type.kind === "object" ? count(a.type.attributes) : 0), 0);

const trees = timed("attribute trees", () => kinds.map((k) => resourceTree(k)));
timed("terraform provider schema", () => providerSchema());
timed("pulumi package schema", () => pulumiSchema());
timed("gitops JSON Schema", () => vigilJsonSchema());
console.log(
  `${"attributes in the trees".padEnd(28)} ${String(trees.reduce((n, t) => n + count(t.attributes), 0)).padStart(8)}`,
);
