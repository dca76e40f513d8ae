/**
 * The order test files start in. Vitest starts the files it has timed before longest first, and others
 * largest first; on CI nothing is timed, and the Terraform examples are small files that run a minute or two
 * each, so they started last and one worker ran them alone while the other had finished. The files below
 * take most of a minute or more (real Terraform, the npm package, many `vigil` processes, PostgreSQL), so
 * they start first, in this order, and the short files fill both workers around them.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const longFiles = [
  "test/terraform/batched-writes.test.ts",
  "test/terraform/e2e/example-cdktf.test.ts",
  "test/pulumi/package.test.ts",
  "test/gitops/hostile.test.ts",
  "test/cli/corpus.test.ts",
  "test/cli/e2e/sandbox-persistence.test.ts",
  "test/terraform/e2e/example-hcl.test.ts",
  "test/cli/e2e/state-postgres.test.ts",
  "test/cli/e2e/interrupt.test.ts",
  "test/terraform/e2e/separate-states.test.ts",
  "test/engine/e2e/crash.test.ts",
  "test/cli/e2e/closed-pipe.test.ts",
  "test/engine/e2e/round-trip.test.ts",
  "test/release/binaries.test.ts",
  "test/secret-scan.test.ts",
  "test/cli/e2e/state-postgres-lost.test.ts",
];

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = longFiles.indexOf(relative(this.ctx.config.root, spec.moduleId));
      return index < 0 ? longFiles.length : index;
    };
    // A stable sort: the other files keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
