import { describe, expect, it } from "vitest";
import { vigil, workspace } from "../vigil.ts";
import { useSandbox } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

const sandbox = useSandbox();

describe("progress while a plan reads the account", () => {
  it("without a terminal, prints a line every interval on stderr while paced reads wait, never on stdout", async () => {
    const sb = sandbox();
    // Trial: 10 reads a minute, in windows aligned to the sandbox clock. Put the clock 12 s before a
    // window turns and spend all but one read: the plan's reads then wait for the next window.
    const account = await sb.account({ plan: "trial", metered: true });
    const at = (await sb.setClock(1_900_000_000 - (1_900_000_000 % 60) + 48)) as number;
    expect(at % 60).toBe(48);
    for (let i = 0; i < 9; i++) expect((await account.get("/account")).status).toBe(200);
    const cwd = await workspace({
      "monitors.yaml": monitorsYaml(1).replace("interval: 60", "interval: 300"),
    });
    const run = await vigil(["plan", "--json"], {
      cwd,
      env: { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token, VIGIL_PROGRESS_EVERY: "1s" },
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    // stdout is the plan document alone.
    expect(JSON.parse(run.stdout).summary.create).toBe(1);
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("Reading the account: "));
    expect(lines.length, run.stderr).toBeGreaterThanOrEqual(2);
    expect(
      lines.some((l) => l.includes("waiting for quota")),
      run.stderr,
    ).toBe(true);
  }, 120_000);
});
