/**
 * The watcher's listener: `POST /events` for the account's webhook
 * deliveries, `GET /metrics` for Prometheus, `GET /healthz` for probes. A
 * delivery is verified over its raw body before anything reads it, answered
 * once it is queued (and the record says so), and acted on afterwards, well
 * inside the API's 10 seconds.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { webhookEvents } from "../kinds/events.ts";
import { capConnections, fastifyLimits, type ServerLimits, serverLimits } from "../server-limits.ts";
import type { DeliveryVerifier } from "./deliveries.ts";
import type { WatchMetrics } from "./metrics.ts";
import type { Watcher } from "./watcher.ts";

export interface ListenerOptions {
  host: string;
  port: number;
  metrics: WatchMetrics;
  watcher: Watcher;
  /** Request timeouts and the connection cap over `defaultServerLimits` (docs/watch.md). */
  limits?: Partial<ServerLimits>;
  /** Without one, `POST /events` answers 404: the watcher polls only. */
  verifier?: DeliveryVerifier;
  log: (line: string) => void;
}

/** A label value from the API's own event names only: a sender cannot grow the metrics without bound. */
const eventLabel = (name: unknown) =>
  typeof name === "string" && (webhookEvents as readonly string[]).includes(name) ? name : "other";

/** Deliveries are small (a monitor, a contact); anything far larger is not one. */
const bodyLimit = 256 * 1024;

export async function startListener(
  options: ListenerOptions,
): Promise<{ app: FastifyInstance; url: string }> {
  const limits = serverLimits(options.limits);
  const app = Fastify({ ...fastifyLimits(limits), bodyLimit });
  capConnections(app.server, limits, (refused) =>
    options.log(
      `Warning: the listener refused ${refused} connection(s) since the last such warning (one a minute at most): ${limits.maxConnections} are open, the most it takes (--max-connections).`,
    ),
  );
  // The body stays raw: signatures are over the bytes as received.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  const { metrics, watcher, verifier } = options;
  app.get("/healthz", async (_req, reply) => {
    const health = watcher.health();
    return reply.code(health.ok ? 200 : 503).send(health.body);
  });
  app.get("/metrics", async (_req, reply) =>
    reply.header("content-type", metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  if (verifier) {
    app.post("/events", async (req, reply) => {
      metrics.eventsReceived.inc({ event: eventLabel(req.headers["svc-event"]) });
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const verdict = verifier.verify(req.headers, raw);
      if (!verdict.ok) {
        metrics.refused(verdict.reason);
        options.log(`Refused a delivery (${verdict.reason}): ${verdict.message}.`);
        // A replay is answered 200: the sender's retry of a delivery already acted on must stop.
        if (verdict.reason === "replayed") return reply.code(200).send({ status: "duplicate" });
        return reply
          .code(verdict.reason === "malformed" ? 400 : 401)
          .send({ error: verdict.reason, message: verdict.message });
      }
      metrics.eventsVerified.inc({ event: eventLabel(verdict.delivery.event) });
      // Settles once the record says events wait to be judged: acknowledged, an event is never lost unseen.
      await watcher.receive(verdict.delivery);
      return reply.code(202).send({ status: "accepted" });
    });
    // A body over the limit is refused before the handler runs: counted here, as the handler counts its refusals.
    app.addHook("onError", async (req, _reply, error) => {
      if (req.routeOptions.url !== "/events" || error.statusCode !== 413) return;
      metrics.eventsReceived.inc({ event: eventLabel(req.headers["svc-event"]) });
      metrics.refused("too_large");
      options.log(`Refused a delivery (too_large): the body is over ${bodyLimit} bytes.`);
    });
  }
  const url = await app.listen({ host: options.host, port: options.port });
  return { app, url };
}
