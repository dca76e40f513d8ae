import { describe } from "vitest";
import { terraformVersion } from "../../helpers/terraform.ts";

/** `describe` when terraform is on PATH; otherwise the suite is skipped, and says so. */
export function describeWithTerraform(title: string, suite: () => void) {
  if (terraformVersion) return describe(title, suite);
  console.warn(
    `SKIPPED "${title}": these tests run the real terraform CLI, and \`terraform version\` did not run ` +
      "(terraform is not on PATH). Install Terraform 1.x to run them.",
  );
  return describe.skip(title, suite);
}
