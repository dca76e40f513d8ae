import { VigilClient } from "../../src/api/client.ts";
import type { ApiResponse, Caller, Pacer, RequestSpec, TimeSource } from "../../src/api/types.ts";
import type { TestSandbox } from "../helpers/sandbox.ts";

/** Test accounts are unmetered: nothing to pace. */
const noPacing: Pacer = { acquire: async () => {}, observe: () => {} };

/** A caller that records every spec it is given, so tests can check routes and quota classes. */
export class RecordingCaller implements Caller {
  readonly specs: RequestSpec[] = [];
  readonly #inner: Caller;

  constructor(inner: Caller) {
    this.#inner = inner;
  }

  call<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>> {
    this.specs.push(spec);
    return this.#inner.call<T>(spec);
  }

  routes(): string[] {
    return this.specs.map((s) => s.route);
  }
}

/** A fresh isolated account of the sandbox, reached through the real client. */
export async function accountCaller(
  sb: TestSandbox,
  options: Parameters<TestSandbox["account"]>[0] = {},
): Promise<RecordingCaller> {
  const account = await sb.account(options);
  return new RecordingCaller(new VigilClient({ baseUrl: sb.url, token: account.token, pacer: noPacing }));
}

/** Time whose sleeps are recorded and kept short: the sandbox's job runner needs no more than a few ticks. */
export function quickTime(maxSleepMs = 30): TimeSource & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => Date.now(),
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise((resolve) => setTimeout(resolve, Math.min(ms, maxSleepMs)));
    },
  };
}
