/**
 * A throwaway PostgreSQL cluster for tests and benches: `initdb` in a
 * temporary directory, started with `pg_ctl` on a free loopback port, removed
 * afterwards. `initdb` refuses to run as root, so as root the server runs as
 * the unprivileged `postgres` user (created by the Debian package; created here
 * if missing) through `runuser`.
 */
import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PostgresServer {
  /** `postgres://vigil:PASSWORD@127.0.0.1:PORT/postgres`, with `?schema=` when given. */
  url(schema?: string): string;
  password: string;
  port: number;
  stop(): Promise<void>;
}

/** The directory holding initdb and pg_ctl: on PATH, or the newest under /usr/lib/postgresql. */
export function findPostgresBin(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter))
    if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** As root: the user the server runs as (the Debian package's `postgres`, created if missing). */
function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = () => {
    try {
      const [uid, gid] = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim().split("\n");
      const group = execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim();
      return { name: "postgres", uid: Number(uid), gid: Number(gid ?? group) };
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found) return found;
  execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
  return lookup();
}

/**
 * Starts a cluster. `durable` keeps fsync on (for benches that measure saves);
 * tests run without it.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (!bin)
    throw new Error(
      "PostgreSQL is not installed: no initdb on PATH or under /usr/lib/postgresql/*/bin (apt-get install postgresql)",
    );
  const user = serverUser();
  const dir = await mkdtemp(join(tmpdir(), "vigil-pg-"));
  const data = join(dir, "data");
  const password = randomBytes(12).toString("hex");
  await writeFile(join(dir, "pw"), `${password}\n`);
  if (user) {
    await chown(dir, user.uid, user.gid);
    await chown(join(dir, "pw"), user.uid, user.gid);
  }
  await chmod(dir, 0o700);
  const as = (command: string, args: string[]) =>
    user
      ? run("runuser", ["-u", user.name, "--", join(bin, command), ...args])
      : run(join(bin, command), args);
  try {
    await as("initdb", [
      "-D",
      data,
      "-U",
      "vigil",
      `--pwfile=${join(dir, "pw")}`,
      "--auth-host=scram-sha-256",
      "--auth-local=trust",
      "-E",
      "UTF8",
      "--no-sync",
    ]);
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const settings = [
        `-p ${port}`,
        "-c listen_addresses=127.0.0.1",
        `-c unix_socket_directories=${dir}`,
        "-c max_connections=200",
        ...(options.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
      ];
      try {
        await as("pg_ctl", [
          "-D",
          data,
          "-o",
          settings.join(" "),
          "-l",
          join(dir, "log"),
          "-w",
          "-t",
          "60",
          "start",
        ]);
        break;
      } catch (error) {
        // Another process may have taken the port between our probe and the server's bind.
        if (attempt >= 3) throw error;
      }
    }
    let stopped = false;
    const stopNow = () => {
      if (stopped) return;
      stopped = true;
      try {
        if (user)
          execFileSync(
            "runuser",
            ["-u", user.name, "--", join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"],
            { stdio: "ignore" },
          );
        else execFileSync(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "stop"], { stdio: "ignore" });
      } catch {}
    };
    // A test run that dies without its afterAll still leaves no server behind.
    process.once("exit", stopNow);
    return {
      password,
      port,
      url: (schema) =>
        `postgres://vigil:${password}@127.0.0.1:${port}/postgres${schema ? `?schema=${schema}` : ""}`,
      stop: async () => {
        process.off("exit", stopNow);
        stopNow();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    const log = await readFile(join(dir, "log"), "utf8").catch(() => "");
    await rm(dir, { recursive: true, force: true });
    const e = error as { stderr?: string; message: string };
    throw new Error(
      `could not start PostgreSQL: ${e.stderr || e.message}${log ? `\nserver log:\n${log}` : ""}`,
    );
  }
}

/**
 * For test files: a cluster, or undefined (with a message saying why) when
 * PostgreSQL cannot start outside CI. In CI (`CI` set) it fails instead.
 */
export async function postgresForTests(): Promise<PostgresServer | undefined> {
  try {
    return await startPostgres();
  } catch (error) {
    if (process.env.CI) throw error;
    process.stderr.write(
      `Skipping the PostgreSQL tests: ${(error as Error).message.split("\n")[0]}. In CI (CI set) this fails instead.\n`,
    );
    return undefined;
  }
}

/** A fresh schema name, so tests sharing one cluster never see each other's state. */
export function freshSchema(): string {
  return `t_${randomBytes(6).toString("hex")}`;
}
