/** `vigil state list | show | rm`: read and edit what vigil manages, without calling the API. */
import type { Command } from "commander";
import { stringify } from "yaml";
import type { State } from "../../engine/index.ts";
import { readSavedState, statePath, stateStore } from "../connection.ts";
import { CliError } from "../errors.ts";

interface StateOptions {
  state?: string;
  sandbox: boolean;
}

async function readState(path: string): Promise<State> {
  const state = await readSavedState(path, "state");
  if (!state) throw new CliError(`There is no state at ${path}.`);
  return state;
}

/** An address and everything nested under it (`monitors.web` takes `monitors.web.alerts.*`). */
function addressesUnder(state: State, address: string): string[] {
  return Object.keys(state.resources).filter((a) => a === address || a.startsWith(`${address}.`));
}

export function registerState(program: Command) {
  const state = program.command("state").description("Read or edit the state (no API calls)");
  const withState = (c: Command) =>
    c
      .option("--state <file>", `state file (default: ${statePath({})})`)
      .option("--sandbox", `the embedded sandbox's state (${statePath({ sandbox: true })})`, false);

  withState(state.command("list").description("List the addresses the state manages")).action(
    async (options: StateOptions) => {
      const s = await readState(statePath(options));
      const rows = Object.entries(s.resources).sort(([a], [b]) => (a < b ? -1 : 1));
      const width = Math.max(0, ...rows.map(([a]) => a.length));
      for (const [address, r] of rows)
        process.stdout.write(
          `${address.padEnd(width)}  ${r.kind}  ${r.id ?? "(create pending)"}${r.pending ? `  (${r.pending.action} pending)` : ""}\n`,
        );
    },
  );

  withState(
    state.command("show").description("Show what the state holds for an address").argument("<address>"),
  ).action(async (address: string, options: StateOptions) => {
    const s = await readState(statePath(options));
    const r = s.resources[address];
    if (!r) throw new CliError(`${address} is not in the state; vigil state list shows what is.`);
    // Credentials are in the state only as salted hashes; nothing secret is printed.
    process.stdout.write(stringify({ address, ...r }));
  });

  withState(
    state
      .command("rm")
      .description("Forget addresses (and what nests under them) without deleting their objects")
      .argument("<addresses...>"),
  ).action(async (addresses: string[], options: StateOptions) => {
    const path = statePath(options);
    const lock = await (await stateStore(path, "state rm")).lock();
    try {
      const s = await lock.read();
      if (!s) throw new CliError(`There is no state at ${path}.`);
      const removed = addresses.flatMap((a) => {
        const found = addressesUnder(s, a);
        if (found.length === 0) throw new CliError(`${a} is not in the state; nothing was removed.`);
        return found;
      });
      for (const a of removed) delete s.resources[a];
      s.serial++;
      await lock.write(s);
      for (const a of removed)
        process.stdout.write(`Removed ${a} from the state; its object stays in the account.\n`);
    } finally {
      await lock.release();
    }
  });
}
