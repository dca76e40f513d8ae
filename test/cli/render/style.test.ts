import { describe, expect, it } from "vitest";
import { renderPlan } from "../../../src/cli/render/human.ts";
import { colorEnabled, styler, stylerFor } from "../../../src/cli/render/style.ts";
import { fullPlan } from "./plans.ts";

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe("colorEnabled", () => {
  it.each([
    ["a terminal", tty, {}, true],
    ["a pipe", pipe, {}, false],
    ["a stream without isTTY", {}, {}, false],
    ["a terminal under NO_COLOR", tty, { NO_COLOR: "1" }, false],
    ["a terminal with NO_COLOR empty", tty, { NO_COLOR: "" }, true],
    ["a dumb terminal", tty, { TERM: "dumb" }, false],
    ["a pipe under FORCE_COLOR", pipe, { FORCE_COLOR: "1" }, true],
    ["a pipe with FORCE_COLOR empty", pipe, { FORCE_COLOR: "" }, true],
    ["a terminal with FORCE_COLOR=0", tty, { FORCE_COLOR: "0" }, false],
    ["a terminal with FORCE_COLOR=false", tty, { FORCE_COLOR: "false" }, false],
    ["FORCE_COLOR against NO_COLOR", tty, { FORCE_COLOR: "1", NO_COLOR: "1" }, false],
  ])("%s → %s", (_, stream, env, expected) => {
    expect(colorEnabled(stream, env)).toBe(expected);
  });
});

describe("stylers", () => {
  it("are the identity when colour is off", () => {
    const s = stylerFor(pipe, {});
    expect(s.enabled).toBe(false);
    for (const style of [s.green, s.red, s.yellow, s.cyan, s.bold, s.dim]) expect(style("text")).toBe("text");
  });

  it("wrap text in ANSI codes when colour is on, whatever process.stdout is", () => {
    const s = stylerFor(tty, {});
    expect(s.green("ok")).toBe("\x1b[32mok\x1b[39m");
    expect(s.red("no")).toBe("\x1b[31mno\x1b[39m");
    expect(s.bold("b")).toBe("\x1b[1mb\x1b[22m");
    expect(s.dim("")).toBe("");
  });

  it("keep a plan plain for a pipe or under NO_COLOR", () => {
    for (const style of [stylerFor(pipe, {}), stylerFor(tty, { NO_COLOR: "1" })]) {
      expect(renderPlan(fullPlan, { style })).not.toContain("\x1b[");
    }
    expect(renderPlan(fullPlan, { style: styler(true) })).toContain("\x1b[32m+\x1b[39m");
  });
});
