import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { repositoryRoot } from "../../../tools/terraform/build.ts";
import { describeWithTerraform } from "./describe.ts";
import { terraformLifecycle } from "./lifecycle.ts";

const example = join(repositoryRoot, "examples/cdktf");

/**
 * Synthesizes the stack the way `cdktf synth` does: runs the `app` command of the example's cdktf.json,
 * with CDKTF_OUTDIR (which cdktf's App reads) pointing into the workspace. Answers the stack's folder.
 */
async function synthesize(outdir: string): Promise<string> {
  const { app } = JSON.parse(await readFile(join(example, "cdktf.json"), "utf8")) as { app: string };
  await promisify(execFile)("sh", ["-c", app], {
    cwd: example,
    // The repository's Node 22 first: the app may run TypeScript directly.
    env: {
      ...process.env,
      CDKTF_OUTDIR: outdir,
      PATH: `${join(repositoryRoot, "node_modules/.bin")}${delimiter}${process.env.PATH}`,
    },
  });
  const stacks = await readdir(join(outdir, "stacks"));
  if (stacks.length !== 1) throw new Error(`expected one synthesized stack, found ${stacks.join(", ")}`);
  return join(outdir, "stacks", stacks[0]!);
}

describeWithTerraform("real Terraform on the synthesized examples/cdktf stack", () => {
  terraformLifecycle({
    async prepare(ws) {
      const dir = await synthesize(join(ws.root, "cdktf.out"));
      // The stack's variables without a default are its credentials: any value of a valid length will do.
      const synthesized = JSON.parse(await readFile(join(dir, "cdk.tf.json"), "utf8"));
      for (const [name, variable] of Object.entries<{ default?: unknown }>(synthesized.variable ?? {})) {
        if (variable.default === undefined) ws.env[`TF_VAR_${name}`] = `e2e-${name}-0123456789abcdef`;
      }
      return dir;
    },
  });
});
