/**
 * The order test files start in. Vitest starts the files it has timed before longest first, and others
 * largest first; on CI nothing is timed, and the Terraform examples are small files that run a minute or two
 * each, so they started last and one worker ran them alone while the other had finished. The long files
 * (test/setup/files.ts) start first, and the short ones fill both workers around them.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { longFilesFirst } from "./files.ts";

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longFilesFirst(await super.sort(files), (spec) => relative(this.ctx.config.root, spec.moduleId));
  }
}
