import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiResponse, Caller, Pacer, RequestSpec } from "../../../src/api/index.ts";
import { formatEta } from "../../../src/cli/render/progress.ts";
import { ReadProgress } from "../../../src/cli/render/read-progress.ts";

/** A stream that keeps what is written, as a terminal or as a pipe. */
function stream(tty: boolean) {
  const s = Object.assign(new PassThrough(), { isTTY: tty, columns: 200, text: "" });
  s.on("data", (d: Buffer) => {
    s.text += d.toString();
  });
  return s;
}

/** A caller answering every list with a full page of 500, and GET /account with its usage. */
const fake: Caller = {
  async call<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const body =
      spec.route === "GET /account"
        ? { usage: { monitors: { used: 20_000, allowed: 20_000 } } }
        : { data: Array.from({ length: 500 }, () => ({})) };
    return { status: 200, headers: {}, body: body as T, requestId: "r", replayed: false };
  },
};
const list = (caller: Caller) =>
  caller.call({ method: "GET", path: "/monitor", route: "GET /monitor", quotaClass: "read" });
const account = (caller: Caller) =>
  caller.call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" });
const flush = () => new Promise((r) => setImmediate(r));

afterEach(() => {
  vi.useRealTimers();
});

describe("read progress", () => {
  it("on a terminal, redraws one line: kind, pages, objects of the account's usage, waiting, time left", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let now = 0;
    const out = stream(true);
    const progress = new ReadProgress({ stream: out, now: () => now });
    const caller = progress.caller(fake);
    await account(caller);
    for (let i = 0; i < 4; i++) {
      now += 1000;
      await list(caller);
    }
    vi.advanceTimersByTime(250);
    await flush();
    expect(progress.line()).toBe(
      "Reading the account: monitors: 4 pages, 2,000 of 20,000 read · about 36s left",
    );
    // A grant the pacer holds back for more than half a second is a wait for quota.
    let grant: () => void = () => {};
    const held: Pacer = {
      acquire: () =>
        new Promise<void>((r) => {
          grant = r;
        }),
      observe: () => {},
    };
    const acquiring = progress.pacer(held).acquire("read");
    now += 600;
    vi.advanceTimersByTime(250);
    await flush();
    expect(progress.line()).toContain("· waiting for quota ·");
    grant();
    await acquiring;
    progress.stop();
    await flush();
    // Drawn, erased and drawn again in place (no newline), then erased at the end.
    expect(out.text).toContain("Reading the account: monitors: 4 pages");
    expect(out.text).toContain("\x1b[2K\x1b[1G");
    expect(out.text).not.toContain("\n");
    expect(out.text.split("Reading the account").length - 1).toBe(2);
  });

  it("without a terminal, says nothing for a short read, then a line every interval", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let now = 0;
    const out = stream(false);
    const progress = new ReadProgress({ stream: out, now: () => now, everyMs: 2000 });
    await list(progress.caller(fake));
    now = 2000;
    vi.advanceTimersByTime(2000);
    now = 4000;
    vi.advanceTimersByTime(2000);
    progress.stop();
    await flush();
    expect(out.text).toBe(
      "Reading the account: monitors: 1 page, 500 read\nReading the account: monitors: 1 page, 500 read\n",
    );
  });

  it("names each list by the kind it reads: a page's templates are no status pages, a /q twin is its list", async () => {
    const progress = new ReadProgress({ stream: stream(true), now: () => 0 });
    const caller = progress.caller(fake);
    const read = (route: string) => caller.call({ method: "GET", path: "/x", route, quotaClass: "read" });
    await read("GET /statuspage/{id}/template");
    expect(progress.line()).toBe("Reading the account: status page templates: 1 page, 500 read");
    await read("GET /contact/group");
    expect(progress.line()).toBe("Reading the account: contact groups: 1 page, 500 read");
    await read("POST /monitor/q");
    await list(caller);
    expect(progress.line()).toBe("Reading the account: monitors: 2 pages, 1,000 read");
    progress.stop();
  });

  it("writes estimates as a person reads them", () => {
    expect(formatEta(400)).toBe("1s");
    expect(formatEta(45_000)).toBe("45s");
    expect(formatEta(190_000)).toBe("3m10s");
    expect(formatEta(14 * 3600_000 + 5 * 60_000)).toBe("14h05m");
  });
});
