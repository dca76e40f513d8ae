/**
 * Apply progress. On a terminal, one bar redrawn in place with the last
 * resource settled, failures printed above it as they come; anywhere else
 * (a pipe, a CI log), one plain line per resource.
 *
 * Written with `readline.clearLine`/`cursorTo` rather than a library: the one
 * progress-bar package in node_modules (`progress`) is only a dependency of a
 * dev tool, and the redraw takes a few lines.
 */
import { clearLine, cursorTo } from "node:readline";
import type { ProgressEvent } from "../../engine/apply/model.ts";
import { type Styler, styler } from "./style.ts";

/** `45s`, `3m10s`, `1h05m`. */
export function formatEta(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export interface ProgressStream extends NodeJS.WritableStream {
  isTTY?: boolean;
  /** Terminal width: the bar line is cut to it, since a wrapped line cannot be redrawn in place. */
  columns?: number;
}

export interface ProgressOptions {
  stream: ProgressStream;
  /** Resources apply will settle. */
  total: number;
  /** Default: no colour. */
  color?: boolean;
  /** Without a terminal: at most one "about … left" line per this many milliseconds (default 5 s). */
  everyMs?: number;
  now?: () => number;
}

/** Past this much time, a rate is worth projecting: the first calls include the plan's own. */
const etaAfterMs = 2000;

export interface Progress {
  event(event: ProgressEvent): void;
  /** Ends the bar's line; nothing to do for plain lines. */
  finish(): void;
}

const barWidth = 20;

/** `monitors.x: create done`, `monitors.y: update failed (see the error below)`. */
export function describeEvent(event: ProgressEvent, s: Styler = styler(false)): string {
  const head = `${event.address}: ${event.action}`;
  // The failure itself is said once, in full, with the errors at the end of the run.
  if (event.outcome === "failed") return `${head} ${s.red("failed")} (see the error below)`;
  return `${head} ${s.green("done")}${event.message ? ` (${event.message})` : ""}`;
}

function bar(settled: number, total: number): string {
  const filled = total === 0 ? barWidth : Math.round((Math.min(settled, total) / total) * barWidth);
  return `[${"#".repeat(filled)}${"-".repeat(barWidth - filled)}] ${settled}/${total}`;
}

/** Cuts plain text to the terminal's width, leaving the last column free for the cursor. */
function fitToWidth(text: string, columns: number | undefined): string {
  if (!columns || columns <= 1) return text;
  const chars = [...text];
  return chars.length < columns ? text : `${chars.slice(0, columns - 2).join("")}…`;
}

export function createProgress(options: ProgressOptions): Progress {
  const { stream, total } = options;
  const s = styler(options.color ?? false);
  const now = options.now ?? Date.now;
  const started = now();
  let settled = 0;
  /** What is left at the rate so far: `about 14h05m left`, once there is a rate to go by. */
  const eta = (): string | undefined => {
    const elapsed = now() - started;
    if (settled === 0 || settled >= total || elapsed < etaAfterMs) return undefined;
    return `about ${formatEta((elapsed / settled) * (total - settled))} left`;
  };
  if (!stream.isTTY) {
    const everyMs = options.everyMs ?? 5000;
    let lastStatus = started;
    return {
      event(event) {
        settled++;
        stream.write(`${describeEvent(event, s)}\n`);
        const left = eta();
        if (left && now() - lastStatus >= everyMs) {
          lastStatus = now();
          stream.write(`${settled} of ${total} settled, ${left}\n`);
        }
      },
      finish() {},
    };
  }

  let drawn = false;
  const clear = () => {
    if (!drawn) return;
    clearLine(stream, 0);
    cursorTo(stream, 0);
  };
  // The line is cut to fit before it is coloured (escape codes take no columns), so it never wraps.
  const draw = (last: string) => {
    clear();
    const left = eta();
    const line = fitToWidth(
      `${bar(settled, total)}${left ? ` (${left})` : ""}${last ? `  ${last}` : ""}`,
      stream.columns,
    );
    stream.write(line.replace(/^\[(#+)/, (_, filled: string) => `[${s.green(filled)}`));
    drawn = true;
  };
  draw("");

  return {
    event(event) {
      settled++;
      if (event.outcome === "failed") {
        clear();
        stream.write(`${describeEvent(event, s)}\n`);
        drawn = false;
      }
      draw(describeEvent(event));
    },
    finish() {
      if (drawn) stream.write("\n");
      drawn = false;
    },
  };
}
