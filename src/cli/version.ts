/**
 * `vigil --version` and `vigil version`: what a bug report needs. Offline: the
 * API version is the one this vigil speaks, not asked of a server.
 */
import type { Command } from "commander";
import { vigilVersion } from "../shipped.ts";

/** The API version the client, the sandbox and the kinds are written against (spec part 2, "Versioning"). */
const apiVersion = "v2";

export interface VersionInfo {
  vigil: string;
  node: string;
  api: string;
}

function versionInfo(): VersionInfo {
  return { vigil: vigilVersion(), node: process.version, api: apiVersion };
}

function versionText(info: VersionInfo = versionInfo()): string {
  return `vigil ${info.vigil}\nNode.js ${info.node}\nMonitoring Service REST API ${info.api}\n`;
}

export function registerVersion(program: Command): void {
  // Program options only before the command: `state show --version N` keeps its own --version.
  program.enablePositionalOptions();
  // Commander prints the text as given and exits 0.
  program.version(
    versionText().trimEnd(),
    "-V, --version",
    "print the versions of vigil, Node.js and the API",
  );
  program
    .command("version")
    .description("Print the versions of vigil, Node.js and the API")
    .option("--json", "print them as JSON: {vigil, node, api}", false)
    .action((options: { json: boolean }) => {
      const info = versionInfo();
      process.stdout.write(options.json ? `${JSON.stringify(info)}\n` : versionText(info));
    });
}
