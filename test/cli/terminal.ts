/**
 * Runs the real `vigil` on a pseudo-terminal, as a person at a terminal does: util-linux `script` gives it
 * one (stdin and stdout are a TTY), and what is written to `script`'s stdin reaches the terminal as typed
 * keys (`\x03` is Ctrl+C, `\x04` Ctrl+D on a terminal in raw mode).
 */
import { spawn, spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { vigilCommand } from "./vigil.ts";

/** Whether `script` (util-linux) is here to give a run a terminal; tests that need one skip, saying so. */
export const terminalAvailable =
  process.platform === "linux" && spawnSync("script", ["--version"]).status === 0;

export interface TerminalRun {
  code: number | null;
  /** Everything the terminal showed, stdout and stderr together, with `\r\n` line ends made `\n`. */
  output: string;
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * `vigil args` on a terminal in `cwd`. When the output first contains `at`, `act` runs with the
 * process's pid and a function that types keys.
 */
export function vigilInTerminal(
  args: readonly string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    at: string;
    act: (pid: number, type: (keys: string) => void) => void;
    timeoutMs?: number;
  },
): Promise<TerminalRun> {
  // The shell writes its pid, then becomes vigil (exec): the pid a signal is sent to.
  const pidFile = join(options.cwd, ".vigil-pid");
  const command = `echo $$ > ${quote(pidFile)}; exec ${[...vigilCommand, ...args].map(quote).join(" ")}`;
  const child = spawn("script", ["--quiet", "--return", "--command", command, "/dev/null"], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      SHELL: "/bin/sh",
      TERM: "dumb",
      NO_COLOR: "1",
      ...options.env,
    },
  });
  let output = "";
  let reached = false;
  const onData = (data: Buffer) => {
    output += data.toString("utf8");
    if (reached || !output.includes(options.at)) return;
    reached = true;
    void readFile(pidFile, "utf8").then((pid) =>
      options.act(Number(pid.trim()), (keys) => child.stdin.write(keys)),
    );
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  return new Promise((done) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      done({ code, output: output.replaceAll("\r\n", "\n") });
    }),
  );
}
