import { expect, it } from "vitest";
import { releaseNames } from "../../tools/release/build.ts";

it("names the artifacts as each tool expects: Node's platform for the CLI, Go's for the plugins", () => {
  expect(releaseNames("1.2.3", "linux", "x64")).toEqual({
    vigil: "vigil-1.2.3-linux-x64",
    terraformZip: "terraform-provider-vigil_1.2.3_linux_amd64.zip",
    terraformExecutable: "terraform-provider-vigil_v1.2.3",
    terraformSums: "terraform-provider-vigil_1.2.3_SHA256SUMS",
    pulumiTarball: "pulumi-resource-vigil-v1.2.3-linux-amd64.tar.gz",
    pulumiExecutable: "pulumi-resource-vigil",
  });
  expect(releaseNames("0.1.0", "darwin", "arm64")).toMatchObject({
    vigil: "vigil-0.1.0-darwin-arm64",
    terraformZip: "terraform-provider-vigil_0.1.0_darwin_arm64.zip",
    pulumiTarball: "pulumi-resource-vigil-v0.1.0-darwin-arm64.tar.gz",
  });
});
