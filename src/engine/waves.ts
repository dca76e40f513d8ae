/**
 * When the calls that wait to be sent together should go: the adaptive window of `BatchedWrites` and
 * `BatchedReads`. Their host (Terraform, Pulumi) sends up to its parallelism of calls at once, and the next
 * as each one is answered, so its calls come in waves.
 *
 * A wave closes once no call has joined it for the quiet window, or at once when every call the host can
 * have in flight is already here: the most calls ever seen in flight together (the host's parallelism,
 * learned from the first wave) are all waiting or already out, so no further call can arrive. While calls
 * are out, the waiting ones wait for them: each answer frees the host to send its next call, which joins
 * them, so waves never split for good. The quiet window grows to twice the longest pause the host has made
 * within a wave, up to `maxWaitMs`.
 */
export interface WaveOptions {
  /** The shortest quiet window. */
  quietMs: number;
  /** The longest a call waits for others, however many keep arriving. */
  maxWaitMs: number;
}

export class Waves {
  readonly #options: WaveOptions;
  /** How many calls wait to be sent now. */
  readonly #waiting: () => number;
  /** Sends every waiting call. */
  readonly #flush: () => void;
  /** Calls between their arrival and their answer: waiting, or out. */
  #inFlight = 0;
  /** The most calls seen in flight together, once a first quiet window has shown the host's wave. */
  #ceiling = 0;
  #quietTimer: NodeJS.Timeout | undefined;
  /** When the last call joined the wave forming now, and the longest pause between its calls. */
  #lastArrival: number | undefined;
  #waveGap = 0;
  /** The longest pauses within recent waves. */
  #gaps: number[] = [];
  /** The last call of a wave the quiet window closed, until the next call comes. */
  #closedQuiet: number | undefined;
  #maxTimer: NodeJS.Timeout | undefined;

  constructor(options: WaveOptions, waiting: () => number, flush: () => void) {
    this.#options = options;
    this.#waiting = waiting;
    this.#flush = flush;
  }

  /** A call arrived: counted in flight until `left`. */
  entered(): void {
    this.#inFlight++;
  }

  /** The call that just entered waits to be sent with others. */
  queued(): void {
    this.#schedule(true);
  }

  /** A call was answered. */
  left(): void {
    this.#inFlight--;
    this.#schedule();
  }

  #schedule(arrival = false): void {
    const waiting = this.#waiting();
    if (waiting === 0) return;
    this.#ceiling = this.#ceiling > 0 ? Math.max(this.#ceiling, this.#inFlight) : 0;
    const out = this.#inFlight - waiting;
    if (out > 0 && waiting < this.#ceiling) {
      this.#hold();
      return;
    }
    const now = performance.now();
    if (arrival) {
      if (this.#lastArrival !== undefined) this.#waveGap = Math.max(this.#waveGap, now - this.#lastArrival);
      // A call that came soon after the quiet window closed its wave: the window was too short for this host.
      if (this.#closedQuiet !== undefined && now - this.#closedQuiet < this.#options.maxWaitMs)
        this.#learn(now - this.#closedQuiet);
      this.#closedQuiet = undefined;
      this.#lastArrival = now;
    }
    if (this.#ceiling > 0 && waiting >= this.#ceiling) {
      // A whole wave: the longest pause between its calls is how long the host may pause within one.
      this.#learn(this.#waveGap);
      this.#send();
      return;
    }
    clearTimeout(this.#quietTimer);
    this.#quietTimer = setTimeout(() => {
      // The host sent what it could: as many as are in flight now is its parallelism, at least.
      this.#ceiling = Math.max(this.#ceiling, this.#inFlight);
      this.#closedQuiet = this.#lastArrival;
      this.#send();
    }, this.#quietMs());
    this.#maxTimer ??= setTimeout(() => this.#send(), this.#options.maxWaitMs);
  }

  #learn(gap: number): void {
    this.#gaps = [...this.#gaps.slice(-7), gap];
  }

  /** Twice the longest pause seen within recent waves, between `quietMs` and `maxWaitMs`. */
  #quietMs(): number {
    const learned = 2 * Math.max(0, ...this.#gaps);
    return Math.min(this.#options.maxWaitMs, Math.max(this.#options.quietMs, learned));
  }

  #hold(): void {
    clearTimeout(this.#quietTimer);
    clearTimeout(this.#maxTimer);
    this.#quietTimer = undefined;
    this.#maxTimer = undefined;
    this.#lastArrival = undefined;
    this.#waveGap = 0;
  }

  #send(): void {
    this.#hold();
    this.#flush();
  }
}
