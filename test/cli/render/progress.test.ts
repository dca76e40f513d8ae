import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createProgress, describeEvent, type ProgressStream } from "../../../src/cli/render/progress.ts";
import type { ProgressEvent } from "../../../src/engine/apply/model.ts";

/** A stream that records what is written, as a terminal (isTTY) or as a pipe. */
function fakeStream(options: { isTTY: boolean; columns?: number }): ProgressStream & { output(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as Writable & ProgressStream & { output(): string };
  stream.isTTY = options.isTTY;
  if (options.columns !== undefined) stream.columns = options.columns;
  stream.output = () => chunks.join("");
  return stream;
}

/**
 * What a terminal shows after `output`: colours are dropped, `CSI 2K` (clear the line) and `CSI 1G` (to its
 * first column), which readline writes, are obeyed.
 */
function screen(output: string): string[] {
  const lines = [""];
  const text = (chunk: string) => {
    const [first = "", ...rest] = chunk.split("\n");
    lines.push(`${lines.pop()}${first}`, ...rest);
  };
  const [head, ...sequences] = output.split("\x1b[");
  text(head!);
  for (const sequence of sequences) {
    const command = /^\d*[A-Za-z]/.exec(sequence)![0];
    if (command === "2K") lines[lines.length - 1] = "";
    else if (command !== "1G" && !command.endsWith("m")) throw new Error(`unexpected CSI ${command}`);
    text(sequence.slice(command.length));
  }
  return lines;
}

const events: ProgressEvent[] = [
  { address: "contacts.oncall", action: "create", outcome: "done" },
  {
    address: "monitors.checkout-api",
    action: "update",
    outcome: "failed",
    message: "422 invalid_body: /interval",
  },
  { address: "monitors.legacy-home", action: "import", outcome: "done", message: "adopted existing m-9" },
  { address: "monitors.old-shop", action: "delete", outcome: "done" },
];

describe("describeEvent", () => {
  it("names the address, the action and the outcome; a failure is said once, at the end of the run", () => {
    expect(events.map((e) => describeEvent(e))).toEqual([
      "contacts.oncall: create done",
      "monitors.checkout-api: update failed (see the error below)",
      "monitors.legacy-home: import done (adopted existing m-9)",
      "monitors.old-shop: delete done",
    ]);
  });
});

describe("progress without a terminal", () => {
  it("writes one plain line per event, and no escape codes", () => {
    const stream = fakeStream({ isTTY: false });
    const progress = createProgress({ stream, total: 4 });
    for (const e of events) progress.event(e);
    progress.finish();
    expect(stream.output()).toBe(
      [
        "contacts.oncall: create done",
        "monitors.checkout-api: update failed (see the error below)",
        "monitors.legacy-home: import done (adopted existing m-9)",
        "monitors.old-shop: delete done",
        "",
      ].join("\n"),
    );
  });

  it("colours the outcome only when asked", () => {
    const stream = fakeStream({ isTTY: false });
    createProgress({ stream, total: 1, color: true }).event(events[1]!);
    expect(stream.output()).toContain("\x1b[31mfailed\x1b[39m");
  });
});

describe("progress on a terminal", () => {
  it("redraws one bar in place, failures printed above it", () => {
    const stream = fakeStream({ isTTY: true, columns: 120 });
    const progress = createProgress({ stream, total: 4 });
    expect(screen(stream.output())).toEqual(["[--------------------] 0/4"]);

    progress.event(events[0]!);
    expect(screen(stream.output())).toEqual(["[#####---------------] 1/4  contacts.oncall: create done"]);

    progress.event(events[1]!);
    progress.event(events[2]!);
    expect(screen(stream.output())).toEqual([
      "monitors.checkout-api: update failed (see the error below)",
      "[###############-----] 3/4  monitors.legacy-home: import done (adopted existing m-9)",
    ]);

    progress.event(events[3]!);
    progress.finish();
    expect(screen(stream.output())).toEqual([
      "monitors.checkout-api: update failed (see the error below)",
      "[####################] 4/4  monitors.old-shop: delete done",
      "",
    ]);
  });

  it("cuts the bar's line to the terminal's width so it never wraps", () => {
    const stream = fakeStream({ isTTY: true, columns: 40 });
    const progress = createProgress({ stream, total: 2 });
    progress.event({ address: "monitors.a-very-long-logical-name", action: "create", outcome: "done" });
    const [line] = screen(stream.output());
    expect(line).toBe("[##########----------] 1/2  monitors.a…");
    expect([...line!].length).toBe(39);
  });

  it("colours the filled part of the bar when asked", () => {
    const stream = fakeStream({ isTTY: true, columns: 80 });
    createProgress({ stream, total: 2, color: true }).event(events[0]!);
    expect(stream.output()).toContain("[\x1b[32m##########\x1b[39m----------] 1/2");
  });
});

describe("the time left while applying many writes", () => {
  const done = (n: number): ProgressEvent => ({
    address: `monitors.m-${n}`,
    action: "delete",
    outcome: "done",
  });

  it("on a terminal, the bar says how long is left at the rate so far", () => {
    let now = 0;
    const stream = fakeStream({ isTTY: true, columns: 200 });
    const progress = createProgress({ stream, total: 100, now: () => now });
    for (let n = 0; n < 10; n++) {
      now += 6000;
      progress.event(done(n));
    }
    progress.finish();
    // 10 deletes in 60 s: the other 90 take about 9 minutes.
    expect(screen(stream.output())).toEqual([
      "[##------------------] 10/100 (about 9m00s left)  monitors.m-9: delete done",
      "",
    ]);
  });

  it("without a terminal, a line of what is left every interval, among the per-resource lines", () => {
    let now = 0;
    const stream = fakeStream({ isTTY: false });
    const progress = createProgress({ stream, total: 1000, now: () => now, everyMs: 5000 });
    for (let n = 0; n < 4; n++) {
      now += 2500;
      progress.event(done(n));
    }
    expect(stream.output().split("\n")).toEqual([
      "monitors.m-0: delete done",
      "monitors.m-1: delete done",
      "2 of 1000 settled, about 41m35s left",
      "monitors.m-2: delete done",
      "monitors.m-3: delete done",
      "4 of 1000 settled, about 41m30s left",
      "",
    ]);
  });
});
