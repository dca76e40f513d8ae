/**
 * The embedded sandbox `vigil test` runs scenarios on: in memory, on a manual clock, its webhook deliveries
 * taken in-process (nothing leaves the machine), driven through its documented control routes
 * (docs/sandbox.md: the clock, outcomes, the outbox) and read through the API (notifications), as any
 * client would. Nothing here decides who is alerted: the sandbox's incident machine does.
 */
import { Agent, request } from "undici";
import { type ReceivedWebhook, type RunningSandbox, startSandbox } from "../../sandbox/index.ts";

/** A delivery the receiver took: what the runner matches webhook expectations on. */
export interface Delivery {
  id: string;
  webhookId: string;
  event: string;
  /** The event's moment (the envelope's `occurredAt`), Unix seconds. */
  occurredAt: number;
  /** The monitors the event is about. */
  monitorIds: string[];
  /** Whether it carried both signatures (`SVC-Signature` and the Standard Webhooks headers). */
  signed: boolean;
}

/** A notification as `GET /contact/notification` answers it. */
export interface NotificationRow {
  id: string;
  contactId: string;
  kind: string;
  event: string;
  channel: string;
  outcome: string;
  reason: string | null;
  monitorIds: string[];
  time: number;
}

const monitorIdsOf = (data: Record<string, unknown>): string[] => {
  const monitor = data.monitor as { id?: unknown } | undefined;
  if (typeof monitor?.id === "string") return [monitor.id];
  if (typeof data.monitorId === "string") return [data.monitorId];
  return Array.isArray(data.monitorIds) ? data.monitorIds.filter((id) => typeof id === "string") : [];
};

export class ScenarioSandbox {
  readonly #sandbox: RunningSandbox;
  readonly #agent = new Agent({ connections: 8 });
  /** Deliveries by id (a retry is the same delivery). */
  readonly deliveries = new Map<string, Delivery>();
  token = "";

  private constructor(sandbox: RunningSandbox) {
    this.#sandbox = sandbox;
  }

  static async start(): Promise<ScenarioSandbox> {
    let self: ScenarioSandbox | undefined;
    const receive = (request: ReceivedWebhook) => {
      self?.receive(request);
      return { status: 200 };
    };
    const sandbox = await startSandbox({
      host: "127.0.0.1",
      port: 0,
      plan: "enterprise",
      manualClock: true,
      webhookReceiver: receive,
      onWarning: (message) => process.stderr.write(`Warning: the test sandbox: ${message}\n`),
    });
    self = new ScenarioSandbox(sandbox);
    return self;
  }

  get url(): string {
    return this.#sandbox.url;
  }

  receive(request: ReceivedWebhook): void {
    const headers = request.headers;
    const id = headers["SVC-Delivery"];
    const webhookId = headers["SVC-Webhook"];
    if (id === undefined || webhookId === undefined || this.deliveries.has(id)) return;
    const envelope = JSON.parse(request.body) as { event: string; occurredAt: number; data: unknown };
    const data = (typeof envelope.data === "object" && envelope.data !== null ? envelope.data : {}) as Record<
      string,
      unknown
    >;
    this.deliveries.set(id, {
      id,
      webhookId,
      event: envelope.event,
      occurredAt: envelope.occurredAt,
      monitorIds: monitorIdsOf(data),
      signed: Boolean(headers["SVC-Signature"] && headers["webhook-signature"] && headers["webhook-id"]),
    });
  }

  /** A call to the sandbox; `admin` calls its control routes. Answers the parsed body, or throws with the answer. */
  async call<T = unknown>(method: "GET" | "POST", path: string, body?: unknown, admin = false): Promise<T> {
    const res = await request(`${this.url}${path}`, {
      method,
      dispatcher: this.#agent,
      headers: {
        authorization: `Bearer ${admin ? this.#sandbox.adminToken : this.token}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300)
      throw new Error(
        `the test sandbox answered ${method} ${path} with ${res.statusCode}: ${text.slice(0, 500)}`,
      );
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }

  /** A fresh unmetered account on the enterprise plan (every feature a configuration may use); its token. */
  async account(): Promise<string> {
    const created = await this.call<{ token: string }>(
      "POST",
      "/_sandbox/accounts",
      { plan: "enterprise", metered: false, login: "vigil-test@sandbox.test" },
      true,
    );
    this.token = created.token;
    return created.token;
  }

  setClock(now: number): Promise<unknown> {
    return this.call("POST", "/_sandbox/clock", { now }, true);
  }

  /** Moves the clock to `now`, each timer on the way firing at its own moment. */
  advanceTo(now: number): Promise<unknown> {
    return this.call("POST", "/_sandbox/clock", { now, stepped: true }, true);
  }

  outcome(monitorId: string, state: "up" | "down"): Promise<unknown> {
    return this.call("POST", `/_sandbox/monitor/${encodeURIComponent(monitorId)}/outcome`, { state }, true);
  }

  async outbox(): Promise<Record<string, unknown>[]> {
    return (await this.call<{ data: Record<string, unknown>[] }>("GET", "/_sandbox/outbox", undefined, true))
      .data;
  }

  /** Every row of a list route, page by page. */
  async list<T>(path: string, query: Record<string, string | number>): Promise<T[]> {
    const rows: T[] = [];
    let cursor: string | undefined;
    for (;;) {
      const params = new URLSearchParams({
        ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
        limit: "500",
      });
      if (cursor) params.set("cursor", cursor);
      const page = await this.call<{ data: T[]; nextCursor?: string | null; hasMore?: boolean }>(
        "GET",
        `${path}?${params}`,
      );
      rows.push(...page.data);
      if (!page.hasMore || !page.nextCursor) return rows;
      cursor = page.nextCursor;
    }
  }

  /** The account's notifications from `from` to `to` (Unix seconds), oldest first. */
  async notifications(from: number, to: number): Promise<NotificationRow[]> {
    const rows: NotificationRow[] = [];
    // The log answers at most 90 days a request.
    for (let a = from; a <= to; a += 90 * 86400) {
      const b = Math.min(to, a + 90 * 86400 - 1);
      rows.push(
        ...(await this.list<NotificationRow>("/contact/notification", { from: a, to: b, sort: "time:asc" })),
      );
    }
    return rows;
  }

  settle(): Promise<void> {
    return this.#sandbox.settle();
  }

  checkpoint() {
    return this.#sandbox.checkpoint();
  }

  async restore(checkpoint: Awaited<ReturnType<RunningSandbox["checkpoint"]>>): Promise<void> {
    await this.#sandbox.restore(checkpoint);
    this.deliveries.clear();
  }

  async close(): Promise<void> {
    await this.#agent.close();
    await this.#sandbox.close();
  }
}
