/** Platform names: Terraform and Pulumi name platforms as Go does (GOOS_GOARCH), Node as Node does. */

const goOs: Partial<Record<NodeJS.Platform, string>> = {
  linux: "linux",
  darwin: "darwin",
  freebsd: "freebsd",
  openbsd: "openbsd",
};
const goArch: Partial<Record<NodeJS.Architecture, string>> = {
  x64: "amd64",
  arm64: "arm64",
  ia32: "386",
  arm: "arm",
};

export function terraformPlatform(platform = process.platform, arch = process.arch): string {
  const os = goOs[platform];
  const cpu = goArch[arch];
  if (!os || !cpu) {
    // Windows would need an .exe, which neither the release nor the source wrapper makes.
    throw new Error(`terraform-provider-vigil: no Terraform platform for ${platform}/${arch}`);
  }
  return `${os}_${cpu}`;
}
