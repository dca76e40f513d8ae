/**
 * The approval prompt on a real terminal: Ctrl+C, a SIGINT and Ctrl+D are answers, not crashes. Each
 * cancels with one sentence and no stack trace, exits 130 (interrupted) or 1 (the input ended), and leaves
 * nothing held: the next run takes the state's lock at once and finds the account and the state untouched.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { terminalAvailable, vigilInTerminal } from "../terminal.ts";
import { sandboxWorkspace, shown } from "./helpers.ts";

const config = `contacts:
  oncall: { type: http, address: https://hooks.example.com/pager }
`;

const prompt = "Enter a value:";

async function cancelled(keys: { type?: string; signal?: NodeJS.Signals }, command = "apply") {
  const w = await sandboxWorkspace({ "main.yaml": config });
  const run = await vigilInTerminal([command, "--sandbox"], {
    cwd: w.dir,
    at: prompt,
    act: (pid, type) => (keys.signal ? process.kill(pid, keys.signal) : type(keys.type!)),
  });
  return { w, run };
}

/** Nothing was changed and nothing is held: a plan with a zero lock timeout still plans the create. */
async function expectNothingChanged(w: Awaited<ReturnType<typeof sandboxWorkspace>>) {
  expect(existsSync(join(w.dir, ".vigil/sandbox-state.json"))).toBe(false);
  const plan = await w.run(["plan", "--sandbox", "--lock-timeout", "0", "--detailed-exitcode"]);
  expect(plan.code, shown(plan)).toBe(2);
  expect(plan.stdout).toContain("Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.");
}

describe.skipIf(!terminalAvailable)(
  "the approval prompt on a terminal (util-linux script)",
  { timeout: 90_000 },
  () => {
    it.concurrent("Ctrl+C: 'Apply cancelled.', exit 130, no stack trace, nothing held", async () => {
      const { w, run } = await cancelled({ type: "\x03" });
      expect(run.code, run.output).toBe(130);
      expect(run.output).toMatch(/Enter a value: .*\nApply cancelled\. Nothing was changed\.\n$/s);
      expect(run.output).not.toMatch(/AbortError|Error:|\n\s+at /);
      await expectNothingChanged(w);
    });

    it.concurrent("a SIGINT sent to the process at the prompt cancels as Ctrl+C does", async () => {
      const { w, run } = await cancelled({ signal: "SIGINT" });
      expect(run.code, run.output).toBe(130);
      expect(run.output).toContain("\nApply cancelled. Nothing was changed.\n");
      expect(run.output).not.toMatch(/AbortError|Error:|\n\s+at /);
      await expectNothingChanged(w);
    });

    it.concurrent("Ctrl+D (the end of the input): cancelled, saying so, exit 1", async () => {
      const { w, run } = await cancelled({ type: "\x04" });
      expect(run.code, run.output).toBe(1);
      expect(run.output).toContain(
        "\nApply cancelled: the input ended before an answer. Nothing was changed.\n",
      );
      expect(run.output).not.toMatch(/AbortError|Error:|\n\s+at /);
      await expectNothingChanged(w);
    });

    it.concurrent("an answer other than yes cancels with exit 0; yes applies", async () => {
      const w = await sandboxWorkspace({ "main.yaml": config });
      const no = await vigilInTerminal(["apply", "--sandbox"], {
        cwd: w.dir,
        at: prompt,
        act: (_pid, type) => type("no\r"),
      });
      expect(no.code, no.output).toBe(0);
      expect(no.output).toContain("\nApply cancelled. Nothing was changed.\n");
      await expectNothingChanged(w);
      const yes = await vigilInTerminal(["apply", "--sandbox"], {
        cwd: w.dir,
        at: prompt,
        act: (_pid, type) => type("yes\r"),
      });
      expect(yes.code, yes.output).toBe(0);
      expect(yes.output).toContain("Apply complete: 1 created.");
    });

    it.concurrent("destroy: Ctrl+C says 'Destroy cancelled.' and deletes nothing", async () => {
      const w = await sandboxWorkspace({ "main.yaml": config });
      expect((await w.run(["apply", "--sandbox", "--auto-approve"])).code).toBe(0);
      const run = await vigilInTerminal(["destroy", "--sandbox"], {
        cwd: w.dir,
        at: prompt,
        act: (_pid, type) => type("\x03"),
      });
      expect(run.code, run.output).toBe(130);
      expect(run.output).toContain("\nDestroy cancelled. Nothing was changed.\n");
      const list = await w.run(["state", "list", "--sandbox"]);
      expect(list.stdout).toMatch(/^contacts\.oncall\s+contact\s+/);
    });
  },
);
