/**
 * Progress while a plan reads the account: a large account is minutes of
 * paced list pages, which must not look like a hang. The client's calls are
 * watched from outside (a wrapping `Caller` and `Pacer`), so the engine stays
 * silent and every command that reads gets it.
 *
 * On a terminal, one line on stderr, redrawn: the kind being read, pages and
 * objects read (of how many the account's usage says it holds), whether the
 * run is waiting for quota, and an estimate of the time left. Elsewhere (a CI
 * log), the same line every few seconds. Always stderr: `--json` owns stdout.
 */
import { clearLine, cursorTo } from "node:readline";
import type { ApiResponse, Caller, Pacer, QuotaClass, RequestSpec } from "../../api/index.ts";
import type { KindName } from "../../engine/index.ts";
import { kinds } from "../../kinds/index.ts";
import { formatEta, type ProgressStream } from "./progress.ts";

export interface ReadProgressOptions {
  stream: ProgressStream;
  /** Without a terminal: milliseconds between lines (default 5 s); nothing is printed for a shorter read. */
  everyMs?: number;
  /** On a terminal: milliseconds between redraws (default 250). */
  redrawMs?: number;
  now?: () => number;
}

/** The kind each list route reads, by its route template (`/monitor`, `/statuspage/{id}/template`). */
const kindOfList = new Map(kinds.map((k) => [k.paths.collection, k]));

/** The account's `usage` area that counts a kind's objects, for the kinds one does. */
const usageAreas: Readonly<Partial<Record<KindName, string>>> = {
  monitor: "monitors",
  contact: "contacts",
  statusPage: "statusPages",
  webhook: "webhooks",
};

/** Waiting less than this for the pacer is ordinary spacing, not worth a word. */
const waitingAfterMs = 500;
/** Pages counted for the rate over this long a window. */
const rateWindowMs = 15_000;

interface Collection {
  label: string;
  pages: number;
  items: number;
  total?: number;
}

/** `usage` of `GET /account`: per area `{used, allowed}`. */
type Usage = Record<string, { used?: unknown } | undefined>;

const number = (n: number) => n.toLocaleString("en-US");

export class ReadProgress {
  readonly #stream: ProgressStream;
  readonly #now: () => number;
  readonly #tty: boolean;
  readonly #intervalMs: number;
  readonly #started: number;
  readonly #collections = new Map<string, Collection>();
  #usage: Usage = {};
  #current: Collection | undefined;
  /** Start times of acquires not yet granted. */
  readonly #waiting = new Set<number>();
  readonly #pageTimes: number[] = [];
  #timer: NodeJS.Timeout | undefined;
  #drawn = false;
  #stopped = false;

  constructor(options: ReadProgressOptions) {
    this.#stream = options.stream;
    this.#now = options.now ?? Date.now;
    this.#tty = Boolean(options.stream.isTTY);
    this.#intervalMs = this.#tty ? (options.redrawMs ?? 250) : (options.everyMs ?? 5000);
    this.#started = this.#now();
    this.#timer = setInterval(() => this.tick(), this.#intervalMs);
    // Progress never keeps the process alive.
    this.#timer.unref();
  }

  /** The client as the engine should see it: every answer counted on its way back. */
  caller(inner: Caller): Caller {
    return {
      call: async <T>(spec: RequestSpec): Promise<ApiResponse<T>> => {
        const res = await inner.call<T>(spec);
        if (!this.#stopped) this.#observe(spec, res.body);
        return res;
      },
    };
  }

  /** The pacer, watched: a grant that takes long is a wait for quota. */
  pacer(inner: Pacer): Pacer {
    return {
      acquire: async (cls: QuotaClass, signal?: AbortSignal) => {
        const started = this.#now();
        this.#waiting.add(started);
        try {
          await inner.acquire(cls, signal);
        } finally {
          this.#waiting.delete(started);
        }
      },
      observe: (cls, status, headers) => inner.observe(cls, status, headers),
      ...(inner.prime && { prime: (quota: unknown) => inner.prime!(quota) }),
    };
  }

  #observe(spec: RequestSpec, body: unknown): void {
    const path = spec.route.replace(/^[A-Z]+ /, "");
    if (path === "/account") {
      const usage = (body as { usage?: unknown } | null)?.usage;
      if (usage && typeof usage === "object") this.#usage = usage as Usage;
      return;
    }
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return;
    // A list read through its `POST <path>/q` twin is the same list.
    const kind = kindOfList.get(path.replace(/\/q$/, ""));
    const label = kind ? `${kind.title.toLowerCase()}s` : (path.split("/")[1] ?? path);
    let c = this.#collections.get(label);
    if (!c) {
      const area = kind && usageAreas[kind.name];
      const used = area ? this.#usage[area]?.used : undefined;
      c = { label, pages: 0, items: 0, ...(typeof used === "number" && { total: used }) };
      this.#collections.set(label, c);
    }
    c.pages++;
    c.items += data.length;
    this.#current = c;
    const at = this.#now();
    this.#pageTimes.push(at);
    while (this.#pageTimes.length > 0 && this.#pageTimes[0]! < at - rateWindowMs) this.#pageTimes.shift();
  }

  /** The line as it reads now; undefined before the first answer. */
  line(): string | undefined {
    const c = this.#current;
    const now = this.#now();
    const waiting = [...this.#waiting].some((t) => now - t >= waitingAfterMs);
    if (!c && !waiting) return undefined;
    const parts: string[] = [];
    if (c) {
      const of = c.total !== undefined && c.total >= c.items ? ` of ${number(c.total)}` : "";
      parts.push(`${c.label}: ${c.pages} ${c.pages === 1 ? "page" : "pages"}, ${number(c.items)}${of} read`);
    }
    if (waiting) parts.push("waiting for quota");
    const eta = this.#eta();
    if (eta !== undefined) parts.push(`about ${formatEta(eta)} left`);
    return `Reading the account: ${parts.join(" · ")}`;
  }

  /** The current kind's pages still to read, at the rate of the last pages. */
  #eta(): number | undefined {
    const c = this.#current;
    if (!c || c.total === undefined || c.pages === 0) return undefined;
    const perPage = Math.max(1, c.items / c.pages);
    const pagesLeft = Math.ceil(Math.max(0, c.total - c.items) / perPage);
    if (pagesLeft === 0 || this.#pageTimes.length < 2) return undefined;
    // The time between the first and the last page of the window, per page read after the first.
    const times = this.#pageTimes;
    const span = Math.max(1, times[times.length - 1]! - times[0]!);
    return (pagesLeft * span) / (times.length - 1);
  }

  tick(): void {
    if (this.#stopped) return;
    const line = this.line();
    if (line === undefined) return;
    if (!this.#tty) {
      // A short read says nothing: a line only once a whole interval has passed.
      if (this.#now() - this.#started >= this.#intervalMs) this.#stream.write(`${line}\n`);
      return;
    }
    if (this.#drawn) {
      clearLine(this.#stream, 0);
      cursorTo(this.#stream, 0);
    }
    const columns = this.#stream.columns;
    this.#stream.write(columns && line.length >= columns ? `${line.slice(0, columns - 2)}…` : line);
    this.#drawn = true;
  }

  /** Ends the progress: the terminal line is erased, so what follows starts on a clean line. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    if (this.#drawn) {
      clearLine(this.#stream, 0);
      cursorTo(this.#stream, 0);
      this.#drawn = false;
    }
  }
}
