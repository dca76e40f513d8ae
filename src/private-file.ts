/**
 * Files vigil writes for the user's eyes only (saved plans, generated credentials, the sandbox's snapshot):
 * mode 0600, replaced atomically, never written through a link.
 */
import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Replaces `file` with `text` atomically, mode 0600: a temporary file beside it, renamed over it. */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  const temporary = join(
    dirname(file),
    `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  const handle = await open(temporary, "wx", 0o600);
  try {
    try {
      // The umask may narrow the creation mode; 0600 must hold whatever it is.
      await handle.chmod(0o600);
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // rename replaces what is at `file`, a link included, and never writes through it.
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
