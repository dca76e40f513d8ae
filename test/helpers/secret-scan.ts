/**
 * What the secret scans share (test/secret-scan.test.ts, test/secret-scan-refusals.test.ts,
 * test/cli/e2e/secrets.test.ts): the texts a run leaves behind (what it printed, the files it wrote) and
 * where a secret shows in them.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { VigilRun } from "../cli/vigil.ts";

/** Every file under `dir` but those `skip` names, by path relative to it: what a user could commit. */
export async function filesUnder(
  dir: string,
  skip: (name: string) => boolean = () => false,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await readdir(dir, { recursive: true })) {
    if (skip(name)) continue;
    const path = join(dir, name);
    if ((await stat(path)).isFile()) out[name] = await readFile(path, "utf8");
  }
  return out;
}

/** What each run printed, as `<name> stdout` and `<name> stderr`: what a CI log keeps. */
export function printedBy(runs: Record<string, VigilRun>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(runs).flatMap(([name, run]) => [
      [`${name} stdout`, run.stdout],
      [`${name} stderr`, run.stderr],
    ]),
  );
}

/** Each secret (by name) found in a text (by where): `<name> in <where>`; none when the scan is clean. */
export function secretsIn(
  texts: Record<string, string>,
  secrets: Record<string, string>,
  options: { ignoreCase?: boolean } = {},
): string[] {
  const fold = (text: string) => (options.ignoreCase ? text.toLowerCase() : text);
  const found: string[] = [];
  for (const [where, text] of Object.entries(texts))
    for (const [name, value] of Object.entries(secrets))
      if (fold(text).includes(fold(value))) found.push(`${name} in ${where}`);
  return found;
}
