/**
 * The outputs file: credentials the service generated and showed once (a webhook's secret when the
 * config sets none). The state keeps no credential, so apply writes each one here the moment the create
 * answers: `.vigil/outputs.json` beside the state, mode 0600, never committed. `vigil output` reads it.
 */
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { GeneratedValue } from "../engine/index.ts";
import { writePrivateFile } from "../private-file.ts";
import { CliError } from "./errors.ts";

export interface OutputEntry {
  kind: string;
  /** The object the values belong to: a replaced object's entry is overwritten by its successor's. */
  id: string;
  /** ISO 8601, when the service answered them. */
  generatedAt: string;
  /** Member → value. */
  values: Record<string, string>;
}

export interface OutputsFile {
  format_version: 1;
  outputs: Record<string, OutputEntry>;
}

/** `.vigil/state.json` → `.vigil/outputs.json`; `.vigil/sandbox-state.json` → `.vigil/sandbox-outputs.json`. */
export function outputsPath(statePath: string): string {
  const name = basename(statePath);
  const own = name.endsWith("state.json")
    ? `${name.slice(0, -"state.json".length)}outputs.json`
    : `${name.replace(/\.json$/, "")}.outputs.json`;
  return join(dirname(statePath), own);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The outputs saved so far; an empty set when there is no file. */
export async function readOutputs(path: string): Promise<OutputsFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { format_version: 1, outputs: Object.create(null) };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${path} is not valid JSON (${(error as Error).message}); it was not written by vigil.`,
    );
  }
  if (!isRecord(parsed) || parsed.format_version !== 1 || !isRecord(parsed.outputs))
    throw new CliError(`${path} is not a vigil outputs file (format_version 1 with an outputs object).`);
  // Addresses are user names: kept in a null-prototype object, so `__proto__` is one more address.
  const outputs: Record<string, OutputEntry> = Object.create(null);
  for (const [address, entry] of Object.entries(parsed.outputs)) {
    if (!isRecord(entry) || !isRecord(entry.values))
      throw new CliError(`${path}: the entry of ${address} is malformed.`);
    outputs[address] = entry as unknown as OutputEntry;
  }
  return { format_version: 1, outputs };
}

/**
 * Adds a generated value to the file, replacing what the address held for another object. Written to a
 * private temporary file and renamed over the old one, so a crash never leaves half a file.
 */
export async function saveOutput(path: string, generated: GeneratedValue, now = new Date()): Promise<void> {
  const file = await readOutputs(path);
  const before = file.outputs[generated.address];
  const entry: OutputEntry =
    before?.id === generated.id
      ? before
      : { kind: generated.kind, id: generated.id, generatedAt: now.toISOString(), values: {} };
  entry.values[generated.member] = generated.value;
  file.outputs[generated.address] = entry;
  await writePrivateFile(path, `${JSON.stringify(file, null, 2)}\n`);
}
