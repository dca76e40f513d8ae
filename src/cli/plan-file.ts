/**
 * Saved plan files on disk (`plan --out`, `apply --plan`). Written privately and atomically: a temporary
 * file of mode 0600 in the target's directory, renamed over the target, so a link at the target is
 * replaced, never followed, and no reader sees half a plan. Read as a configuration is (docs/gitops.md,
 * "Limits"): its size is checked before it is read, and its nesting before it is parsed.
 */
import { constants } from "node:fs";
import { access, lstat, open, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type Plan, parsePlan, serializePlan } from "../engine/index.ts";
import { formatBytes, limits } from "../gitops/source.ts";
import { writePrivateFile } from "../private-file.ts";
import { CliError } from "./errors.ts";

/**
 * Bytes of a plan file: four times what a whole configuration may hold, since a plan lists in JSON every
 * member each create sets and every object the state manages. A plan creating 100,000 monitors (the
 * Enterprise plan's count) is about 115 MiB, read in 3 s of CPU and shown in 7 s within 1 GB (`npm run bench:plan-file`).
 */
export const planFileBytes = 4 * limits.configBytes;
/** Levels of nesting: a configuration's, and the plan's own around a member's value (`/actions/0/changes/0/value`). */
export const planFileDepth = limits.depth + 8;

/**
 * Before a plan to `file` reads the account: its directory must exist (it is not created: a mistyped
 * directory is refused rather than made) and be writable, and `file` must not be a directory (a link
 * there, to whatever, is replaced).
 */
export async function checkPlanTarget(file: string): Promise<void> {
  const dir = dirname(resolve(file));
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(
      `--out ${file}: ${error.code === "ENOENT" ? `the directory ${dirname(file)} does not exist; create it first` : `cannot use the directory ${dirname(file)} (${error.code ?? error.message})`}. Nothing was read.`,
    );
  });
  if (!info.isDirectory())
    throw new CliError(`--out ${file}: ${dirname(file)} is not a directory. Nothing was read.`);
  await access(dir, constants.W_OK).catch(() => {
    throw new CliError(`--out ${file}: the directory ${dirname(file)} is not writable. Nothing was read.`);
  });
  const target = await lstat(file).catch(() => undefined);
  if (target?.isDirectory())
    throw new CliError(`--out ${file}: that is a directory; name a file. Nothing was read.`);
}

/** Saves `plan` to `file`: mode 0600 whatever the umask or an earlier file's mode, and never through a link. */
export async function writePlanFile(file: string, plan: Plan): Promise<void> {
  const text = serializePlan(plan);
  const size = Buffer.byteLength(text);
  if (size > planFileBytes)
    throw new CliError(
      `--out ${file}: the plan holds ${formatBytes(size)}, and a plan file holds at most ${formatBytes(planFileBytes)}; plan part of the configuration (--target) and apply it in steps.`,
    );
  await writePrivateFile(file, text).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`Cannot save the plan to ${file}: ${error.code ?? error.message}`);
  });
}

/** Reads a saved plan: at most `planFileBytes`, nested at most `planFileDepth` levels, then its shape. */
export async function readPlanFile(file: string): Promise<Plan> {
  const text = (await readBounded(file)).toString("utf8");
  const deep = depthBeyond(text, planFileDepth);
  if (deep !== undefined)
    throw new CliError(
      `The plan file ${file} nests values deeper than ${planFileDepth} levels (at character ${deep.toLocaleString("en")}), more than any plan vigil makes; it was not read.`,
    );
  return parsePlan(text, file);
}

async function readBounded(file: string): Promise<Buffer> {
  // Non-blocking: opening a named pipe must not wait for a writer; it is then refused as no regular file.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      throw new CliError(
        `Cannot read the plan file ${file}: ${error.code === "ENOENT" ? "no such file" : (error.code ?? error.message)}`,
      );
    },
  );
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new CliError(`Cannot read the plan file ${file}: it is not a regular file.`);
    const tooLarge = (size: number) =>
      new CliError(
        `The plan file ${file} holds ${size > info.size ? "more than " : ""}${formatBytes(size)}; a plan file holds at most ${formatBytes(planFileBytes)}. It was not read.`,
      );
    if (info.size > planFileBytes) throw tooLarge(info.size);
    // A file that grows while it is read is still read only up to the bound (and one byte, to see it grew).
    let buffer = Buffer.allocUnsafe(info.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, planFileBytes + 1));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > planFileBytes) throw tooLarge(length);
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** The offset where JSON `text` opens its (max+1)th level of arrays and objects, or undefined. Strings skipped. */
function depthBeyond(text: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}
