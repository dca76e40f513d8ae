/** What a test file holds once read and checked (read.ts, check.ts): times in seconds, names as configured. */
import type { Position } from "../../gitops/files.ts";
import type { LoadDiagnostic } from "../../gitops/load.ts";
import type { AlertType } from "../../routing/index.ts";

export type { LoadDiagnostic, Position };

/** What a notification must be to match: to a contact, or a delivery to a webhook. */
export type Match =
  | {
      contact: string;
      /** Absent (in `never:` only): any alert type. */
      alert?: AlertType;
      outcome?: "sent" | "blocked";
      channel?: string;
      monitor?: string;
    }
  | { webhook: string; event?: string; monitor?: string };

export interface Step {
  /** Seconds from the scenario's start. */
  at: number;
  down: string[];
  up: string[];
  place?: Position;
}

export interface Expectation {
  at: number;
  within: number;
  match: Match;
  place?: Position;
}

export interface Never {
  match: Match;
  place?: Position;
}

export interface Scenario {
  name: string;
  place?: Position;
  /** Unix seconds: the virtual clock at the start. */
  start: number;
  /** Seconds from the start: where the runner stops. */
  end: number;
  /** Whether `until:` set the end. */
  untilGiven: boolean;
  steps: Step[];
  expect: Expectation[];
  never: Never[];
}

export interface Rules {
  everyMonitorAlerts?: { value: boolean; place?: Position };
  /** Seconds. */
  maxDelay?: { value: number; place?: Position };
}

/** One test file. */
export interface Suite {
  /** As shown in messages (relative to the working directory). */
  file: string;
  /** The contacts taken as confirmed; undefined: all. */
  confirmed?: string[];
  rules: Rules;
  scenarios: Scenario[];
}

/** Which names the configuration declares, and what the checks need to know of them. */
export interface ConfigNames {
  monitors: Map<string, { enabled: boolean }>;
  contacts: Map<string, { type: string }>;
  webhooks: Map<string, { events: string[] }>;
}

/** A problem of a test file (an error) or a remark on it (a warning), at its place. */
export type TestDiagnostic = LoadDiagnostic;

export const isContactMatch = (m: Match): m is Extract<Match, { contact: string }> => "contact" in m;
