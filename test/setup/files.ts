/** Which test files run how (vitest.config.ts); test/setup/files.test.ts holds both lists to the tree. */

/**
 * Files that need a process of their own: a module mock (vi.mock) replaces a module for the whole process,
 * so the file must load the module graph fresh, and nothing after it may see the mock.
 */
export const isolatedFiles = ["test/sandbox/admin-token-timing.test.ts"];

/**
 * Files that take most of a minute or more (real Terraform, the npm package, many `vigil` processes,
 * PostgreSQL), longest first: test/setup/sequencer.ts starts them before the others.
 */
export const longFiles = [
  "test/fleet/fleet.test.ts",
  "test/terraform/batched-writes.test.ts",
  "test/terraform/e2e/example-cdktf.test.ts",
  "test/pulumi/package.test.ts",
  "test/gitops/hostile.test.ts",
  "test/cli/corpus.test.ts",
  "test/cli/e2e/sandbox-persistence.test.ts",
  "test/terraform/e2e/example-hcl.test.ts",
  "test/terraform/e2e/export-cdktf.test.ts",
  "test/engine/e2e/round-trip.test.ts",
  "test/cli/e2e/state-postgres.test.ts",
  "test/cli/e2e/interrupt.test.ts",
  "test/terraform/e2e/separate-states.test.ts",
  "test/engine/e2e/crash.test.ts",
  "test/cli/e2e/closed-pipe.test.ts",
  "test/release/binaries.test.ts",
  "test/secret-scan.test.ts",
  "test/cli/e2e/state-postgres-lost.test.ts",
];

/** `items` with the long files first, in their list's order; the others keep their order after them. */
export function longFilesFirst<T>(items: readonly T[], pathOf: (item: T) => string): T[] {
  const rank = (item: T) => {
    const index = longFiles.indexOf(pathOf(item));
    return index < 0 ? longFiles.length : index;
  };
  // Array.prototype.sort is stable.
  return [...items].sort((a, b) => rank(a) - rank(b));
}
