/**
 * The one clock. Everything that waits or reads the time takes a `TimeSource`: the API client and its
 * pacing, the state lock and its lease, the watcher and its notifier, and the sandbox's background ticker
 * and webhook deliveries. Production code defaults to `realTime`; tests pass a clock they move themselves,
 * so no test has to sleep. It lives with the kinds because the sandbox, which imports only the kinds,
 * takes it too.
 */
export interface TimeSource {
  /** Milliseconds. */
  now(): number;
  /**
   * Resolves after `ms`, or rejects with the signal's reason when it aborts first. `unref`: the wait
   * does not keep the process alive on its own (a lease's renewal, a background ticker).
   */
  sleep(ms: number, signal?: AbortSignal, options?: { unref?: boolean }): Promise<void>;
}

export const realTime: TimeSource = {
  now: () => Date.now(),
  sleep: (ms, signal, options) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", abort);
        resolve();
      }, ms);
      if (options?.unref) timer.unref();
      const abort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
    }),
};
