/**
 * Which modules a command line loads. Most of a short run is loading modules, so a run loads only the
 * command it runs: `vigil --version` loads no command, `vigil validate` the loader and the kinds but not the
 * engine's writes, the sandbox or the watcher. Help, and a name that is no command, load them all, for the
 * full list.
 */
import type { Command } from "commander";

type Register = (program: Command) => void;

/** Each module of commands, with the names it registers, in the order help lists them. */
export const commandModules: readonly { names: readonly string[]; load: () => Promise<Register> }[] = [
  { names: ["validate"], load: async () => (await import("./commands/validate.ts")).registerValidate },
  { names: ["plan"], load: async () => (await import("./commands/plan.ts")).registerPlan },
  {
    names: ["apply", "destroy", "import"],
    load: async () => (await import("./commands/apply.ts")).registerApply,
  },
  { names: ["export"], load: async () => (await import("./commands/export.ts")).registerExport },
  { names: ["state"], load: async () => (await import("./commands/state.ts")).registerState },
  { names: ["watch"], load: async () => (await import("./commands/watch.ts")).registerWatch },
  { names: ["routes"], load: async () => (await import("./commands/routes.ts")).registerRoutes },
  { names: ["output"], load: async () => (await import("./commands/output.ts")).registerOutput },
  { names: ["test"], load: async () => (await import("./commands/test.ts")).registerTest },
  { names: ["sandbox"], load: async () => (await import("./sandbox.ts")).registerSandboxCommand },
];

/** The modules a command line needs: none for the version, its own for a command, else all of them. */
export function modulesFor(args: readonly string[]) {
  const [first] = args;
  if (first === "-V" || first === "--version" || first === "version") return [];
  const named = commandModules.filter((module) => first !== undefined && module.names.includes(first));
  return named.length > 0 ? named : commandModules;
}
