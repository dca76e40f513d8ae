/**
 * The entry of the release's `vigil` binary, a V8 startup snapshot (`useSnapshot`): when the release is
 * built, Node runs this file, which loads the modules of the commands a short run uses (validate, plan) and
 * the program's own, and the heap is saved; the binary starts from that heap, its modules loaded and their
 * schemas built, and runs the command line. The other commands load when they run, as anywhere else.
 */
import { startupSnapshot } from "node:v8";
import { commandModules } from "../../src/cli/command-modules.ts";
import { runCli } from "../../src/cli/run.ts";

/** Commands whose modules the snapshot holds: those run many times in a row, by people and by CI. */
const PRELOADED = ["validate", "plan"];

void Promise.all(
  commandModules
    .filter((module) => module.names.some((name) => PRELOADED.includes(name)))
    .map((m) => m.load()),
);
startupSnapshot.setDeserializeMainFunction(() => {
  void runCli(process.argv.slice(2));
});
