import { bundlePrograms } from "/work/wt/i26-startup/tools/release/bundle.ts";
import { launcherScript } from "/work/wt/i26-startup/tools/pack.ts";
import { writeFile, chmod, rm } from "node:fs/promises";
const out = process.argv[2];
await rm(out, { recursive: true, force: true });
await bundlePrograms("/work/wt/i26-startup", { vigil: "src/cli/main.ts" }, out, "esm");
await writeFile(`${out}/vigil`, launcherScript("vigil"));
await chmod(`${out}/vigil`, 0o755);
