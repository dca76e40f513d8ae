/**
 * The `--data` file holds the sandbox's signing key and admin secret: whoever
 * reads it can forge owner and admin tokens. It is created 0600 before SQLite
 * opens it (SQLite gives its -wal and -shm files the database's mode), and an
 * existing file, or side file, that others could read is tightened to 0600.
 */
import { chmod, open, stat } from "node:fs/promises";

/** SQLite's side files of a database in WAL mode, and the rollback journal of an older one. */
const sideFiles = ["-wal", "-shm", "-journal"];

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * Creates `file` 0600 when it does not exist, and tightens it and its side files to 0600 when group or
 * others have any access. Answers a warning per file it tightened, or could not.
 */
export async function secureDataFile(file: string): Promise<string[]> {
  // Windows has no such modes: its files inherit the directory's access lists.
  if (process.platform === "win32") return [];
  try {
    // An empty file is an empty SQLite database; "wx" fails when it exists, and then it is tightened.
    await (await open(file, "wx", 0o600)).close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw unusable(file, error);
  }
  const warnings: string[] = [];
  for (const path of [file, ...sideFiles.map((suffix) => `${file}${suffix}`)]) {
    let mode: number;
    try {
      mode = (await stat(path)).mode;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw unusable(path, error);
    }
    if ((mode & 0o077) === 0) continue;
    try {
      await chmod(path, 0o600);
      warnings.push(
        `${path} was readable by others (mode ${octal(mode)}); it is now 0600. It holds the signing key and admin secret: anyone who read it could forge tokens.`,
      );
    } catch (error) {
      warnings.push(
        `${path} is readable by others (mode ${octal(mode)}) and could not be made 0600 (${(error as Error).message}). It holds the signing key and admin secret: anyone who reads it can forge tokens.`,
      );
    }
  }
  return warnings;
}

/** A data file that cannot be created or read: said in one line (an EACCES here is no port's fault). */
function unusable(path: string, error: unknown): Error {
  const { code } = error as NodeJS.ErrnoException;
  const why =
    code === "ENOENT"
      ? "its directory does not exist"
      : code === "EACCES"
        ? "permission denied"
        : (error as Error).message;
  return Object.assign(new Error(`the data file ${path} cannot be used: ${why}.`, { cause: error }), {
    code: "VIGIL_DATA_FILE_UNUSABLE",
  });
}
