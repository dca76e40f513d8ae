#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import module from "node:module";
import { runCli } from "./run.ts";

// Node keeps the compiled code of the commands between runs (in the OS temp dir): an installed package
// starts without compiling them again. (A single executable carries its code cache.)
module.enableCompileCache?.();

// No top-level await: the single-executable binary runs this file bundled as CommonJS.
void runCli(process.argv.slice(2));
