/**
 * Whether the CLI colours its output, and the styling functions it uses.
 * Colours go to a terminal only: a pipe, a file or a CI log gets plain text.
 */
import { styleText } from "node:util";

/** What decides colour: a stream that may be a terminal, and the environment. */
export interface ColorTarget {
  isTTY?: boolean;
}

export type Env = Record<string, string | undefined>;

/**
 * Colour is on when the stream is a terminal (and `TERM` is not `dumb`), or when `FORCE_COLOR` asks for it
 * (any value but `0` and `false`, as chalk and Node read it). `NO_COLOR` set to anything but the empty string
 * (https://no-color.org) turns it off, even under `FORCE_COLOR`: a user who asks for no colour gets none.
 */
export function colorEnabled(stream: ColorTarget, env: Env = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

type Style = (text: string) => string;

export interface Styler {
  readonly enabled: boolean;
  green: Style;
  red: Style;
  yellow: Style;
  cyan: Style;
  bold: Style;
  dim: Style;
}

const identity: Style = (text) => text;

/** Styling functions; each is the identity when `enabled` is false. */
export function styler(enabled: boolean): Styler {
  // The decision is ours (the stream may be stderr, the env may be a test's): styleText must not redo it.
  const style =
    (format: Parameters<typeof styleText>[0]): Style =>
    (text) =>
      text === "" ? text : styleText(format, text, { validateStream: false });
  if (!enabled) {
    return {
      enabled,
      green: identity,
      red: identity,
      yellow: identity,
      cyan: identity,
      bold: identity,
      dim: identity,
    };
  }
  return {
    enabled,
    green: style("green"),
    red: style("red"),
    yellow: style("yellow"),
    cyan: style("cyan"),
    bold: style("bold"),
    dim: style("dim"),
  };
}

/** The styler for output written to `stream`. */
export function stylerFor(stream: ColorTarget, env: Env = process.env): Styler {
  return styler(colorEnabled(stream, env));
}
