import { join } from "node:path";
import { repositoryRoot } from "../../../tools/terraform/build.ts";
import { describeWithTerraform } from "./describe.ts";
import { terraformLifecycle } from "./lifecycle.ts";

describeWithTerraform("real Terraform on examples/terraform", () => {
  terraformLifecycle({
    prepare: (ws) => ws.copy(join(repositoryRoot, "examples/terraform"), "example"),
    vars: {
      pager_token: "pager-token-e2e",
      checkout_password: "probe-password-e2e",
      webhook_secret: "webhook-secret-e2e-0123456789",
    },
  });
});
