import { open, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { writePrivateFile } from "../../private-file.ts";
import type { StoreSnapshot } from "./store.ts";

/** The snapshot file layout this code writes; a file of another version is refused, never guessed at. */
export const snapshotFormatVersion = 1;

const snapshotFile = z.object({
  format_version: z.literal(snapshotFormatVersion),
  docs: z.record(z.string(), z.array(z.looseObject({ id: z.string(), accountId: z.string() }))),
  meta: z.record(z.string(), z.unknown()),
});

function invalid(file: string, what: string, cause?: unknown): Error {
  const error = new Error(`The sandbox snapshot ${file} ${what}.`, { cause });
  return Object.assign(error, { code: "VIGIL_SNAPSHOT_INVALID" });
}

/** The snapshot kept in `file`, or undefined when there is no such file yet. */
export async function readSnapshotFile(file: string): Promise<StoreSnapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    // Some of node's messages (EISDIR) leave the path out.
    throw new Error(`The sandbox snapshot ${file} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `is not valid JSON (${(error as Error).message})`, error);
  }
  const version = (data as { format_version?: unknown } | null)?.format_version;
  if (version === undefined) throw invalid(file, "has no format_version: it is not a vigil sandbox snapshot");
  if (version !== snapshotFormatVersion) {
    throw invalid(
      file,
      `has format_version ${JSON.stringify(version)}; this vigil reads version ${snapshotFormatVersion}`,
    );
  }
  const parsed = snapshotFile.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(file, `is damaged at ${issue.path.join(".") || "the top level"}: ${issue.message}`);
  }
  return { docs: parsed.data.docs, meta: parsed.data.meta };
}

/**
 * Replaces `file` with the snapshot atomically: a reader (or a crash) sees the
 * old file or the new one, never half of one. The temporary file is in the
 * same directory, so the rename stays on one file system. Mode 0600: the
 * snapshot holds the sandbox's signing key, admin secret and webhook secrets.
 */
export async function writeSnapshotFile(file: string, snapshot: StoreSnapshot): Promise<void> {
  const body = JSON.stringify({ format_version: snapshotFormatVersion, ...snapshot });
  await writePrivateFile(file, body);
  await syncDirectory(dirname(file));
}

/** Makes the rename itself durable. Some platforms (Windows) cannot open a directory: the rename stands there anyway. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(dir, "r");
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename has still happened.
  } finally {
    await handle.close();
  }
}
