/**
 * THIRD-PARTY-NOTICES.txt: the licence of every package a bundle holds (found from esbuild's metafile), with
 * its licence file's text, and of the Node.js a binary is built on (`nodeVersion`). The bundles carry other people's
 * code, and most of their licences ask that the notice travel with it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** `node_modules/<name>/` or `node_modules/@scope/<name>/`, the innermost one, of a bundled input path. */
const packageOf = (input: string) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

export function thirdPartyNotices(root: string, inputs: Iterable<string>, nodeVersion?: string): string {
  const packages = new Map<string, string>();
  for (const input of inputs) {
    const dir = packageOf(input);
    if (!dir) continue;
    const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    const id = `${manifest.name}@${manifest.version}`;
    if (packages.has(id)) continue;
    const licenceFile = readdirSync(join(root, dir)).find((file) =>
      /^(licen[cs]e|copying)(\.|$)/i.test(file),
    );
    const text = licenceFile
      ? readFileSync(join(root, dir, licenceFile), "utf8").trim()
      : "(no licence file)";
    packages.set(id, `${id} (${manifest.license ?? "licence not declared"})\n\n${text}`);
  }
  const node = nodeVersion
    ? [
        `Node.js ${nodeVersion} (MIT, with the licences of its own dependencies): https://github.com/nodejs/node/blob/v${nodeVersion}/LICENSE`,
      ]
    : [];
  const sorted = [...packages.keys()].sort().map((id) => packages.get(id)!);
  const rule = `\n\n${"-".repeat(78)}\n\n`;
  return `vigil's programs bundle the following software.${rule}${[...node, ...sorted].join(rule)}\n`;
}
