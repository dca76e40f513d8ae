import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from "fastify";
import { capConnections, fastifyLimits, type ServerLimits, serverLimits } from "../../server-limits.ts";
import { assertFiniteNumbers, maxBodyDepth, tooDeep, tooDeepAt } from "./body.ts";
import { faultAfter, faultBefore } from "./fault-hooks.ts";
import { newRequestId } from "./ids.ts";
import { type HttpMethod, type Operation, pathShape } from "./operation.ts";
import { admit, execute, type RequestState } from "./pipeline.ts";
import { ApiProblem, renderProblem } from "./problem.ts";
import type { SandboxState } from "./state.ts";

declare module "fastify" {
  interface FastifyRequest {
    vigil: RequestState;
  }
}

/** Methods answered 405 on a known path that does not take them (OPTIONS included: the API offers no CORS preflight). */
const refusable = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

export interface AppOptions {
  /** Request timeouts and the connection cap (src/server-limits.ts); the defaults when absent. */
  limits?: ServerLimits;
  /** Hears of connections refused past the cap, at most once a minute. */
  onRefused?: (refused: number) => void;
}

/** Builds the HTTP app for an operation table; one error renderer serves every failure. */
export function createApp(
  state: SandboxState,
  operations: Operation[],
  options: AppOptions = {},
): FastifyInstance {
  state.services.operations = operations;
  const limits = options.limits ?? serverLimits();
  const app = newFastify(state, limits);
  acceptJsonBodies(app);
  app.decorateRequest("vigil", null as unknown as RequestState);
  capConnections(app.server, limits, options.onRefused);
  app.addHook("onRequest", async (req, reply) => {
    req.vigil = { requestId: newRequestId() };
    reply.header("x-request-id", req.vigil.requestId);
  });
  app.addHook("onResponse", async (req, reply) => {
    const route = req.routeOptions.url ?? "(unmatched)";
    // A reset was counted when the connection was reset, as `reset`.
    if (!route.startsWith("/_sandbox") && !req.vigil.fault?.reset)
      state.stats.count(`${req.method} ${route.replace(/:(\w+)/g, "{$1}")}`, reply.statusCode);
  });
  addOperationRoutes(app, state, operations);
  app.setNotFoundHandler(async (req) => {
    throw new ApiProblem("not_found", `No route ${req.method} ${req.url.split("?")[0]}.`);
  });
  app.setErrorHandler(async (error: FastifyError | ApiProblem, req, reply) => {
    const problem =
      error instanceof ApiProblem ? error : fromFrameworkError(error, req.vigil?.requestId ?? "");
    const rs = req.vigil;
    // A 429 that describes its own limit (a spent window, a token's cap) is not mixed with the meter's.
    const ownLimit = Object.keys(problem.headers).some((h) => h.toLowerCase().startsWith("ratelimit-"));
    const metered = rs?.charge && rs.account && !ownLimit;
    const headers: Record<string, string> = {
      ...rs?.rateHeaders,
      ...(metered && state.meter.headers(rs.account!.id, rs.account!.plan, rs.charge!, state.clock.now())),
      ...problem.headers,
    };
    reply
      .code(problem.status)
      .headers(headers)
      .type("application/problem+json")
      .send(renderProblem(problem, state.baseUrl, req.url));
  });
  return app;
}

/** The Fastify instance, with the answers to what fails before any hook runs. */
function newFastify(state: SandboxState, limits: ServerLimits): FastifyInstance {
  return Fastify({
    ...fastifyLimits(limits),
    logger: false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: true,
    // Requests Node's HTTP parser refuses before Fastify sees them (a malformed request line, headers
    // or a query string over 16 KiB): still a problem document with a request id.
    // A request cut off by a timeout (server-limits.ts) lands here too. An answer already begun is not
    // interrupted by a second one: the connection is only closed.
    clientErrorHandler: (error, socket) => {
      if ((error as NodeJS.ErrnoException).code === "ECONNRESET" || socket.destroyed) return;
      const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
      if (socket.writable && !answering)
        socket.write(clientErrorResponse(error as NodeJS.ErrnoException, state.baseUrl));
      socket.destroy(error);
    },
    // Failures found while routing, before any hook runs (a malformed %-escape in the path, an
    // over-long path parameter), rendered as problem documents with a request id like any other.
    frameworkErrors: (error, req, reply) => {
      const requestId = newRequestId();
      const problem =
        error.code === "FST_ERR_MAX_PARAM_LENGTH"
          ? new ApiProblem("not_found", "No resource with such an id.")
          : error.code === "FST_ERR_BAD_URL"
            ? new ApiProblem("malformed_request", "The path is not validly %-encoded.")
            : fromFrameworkError(error, requestId);
      (reply as unknown as FastifyReply)
        .code(problem.status)
        .header("x-request-id", requestId)
        .type("application/problem+json")
        .send(renderProblem(problem, state.baseUrl, req.url));
    },
  });
}

/**
 * Bodies are JSON only: without this, Fastify's built-in text/plain parser would accept a string body.
 * Depth is bounded on the raw text before anything parses or walks it, then Fastify's own parser (which
 * refuses `__proto__` and `constructor.prototype` keys), then numbers JSON can echo.
 */
function acceptJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser("text/plain");
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, bytes, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(bytes as Buffer);
    } catch {
      return done(new ApiProblem("malformed_request", "The body is not valid UTF-8."), undefined);
    }
    const deep = tooDeepAt(text, maxBodyDepth);
    if (deep !== undefined) return done(tooDeep(deep), undefined);
    parseJson(req, text, (error, value) => {
      if (error) return done(error, undefined);
      try {
        assertFiniteNumbers(value);
      } catch (problem) {
        return done(problem as ApiProblem, undefined);
      }
      done(null, value);
    });
  });
}

/** A route per operation through the pipeline; a known path with another method answers 405. */
function addOperationRoutes(app: FastifyInstance, state: SandboxState, operations: Operation[]): void {
  const byShape = new Map<string, { path: string; methods: Set<HttpMethod> }>();
  for (const op of operations) {
    const shape = pathShape(op.path);
    const entry = byShape.get(shape) ?? { path: op.path, methods: new Set() };
    entry.methods.add(op.method);
    byShape.set(shape, entry);
    app.route({
      method: op.method,
      url: toFastifyPath(op.path),
      onRequest: async (req, reply) => {
        if (await faultBefore(state, op, req, reply)) return;
        // The client gave up while injected latency ran: nothing of its call runs, spends or claims.
        if (reply.raw.destroyed) return void reply.hijack();
        admit(state, op, req, reply.raw, req.vigil);
      },
      onSend: async (req, reply, payload) => faultAfter(state, op, req, reply, payload),
      handler: async (req, reply) => {
        // An idempotency key is held until its operation has run; an operation whose connection
        // closed before it could start runs nothing (its client is gone, and its key is free again).
        const claim = req.vigil.claim;
        if (claim && !claim.start()) return reply.hijack();
        try {
          await execute(state, op, req, reply, req.vigil);
        } finally {
          claim?.finish();
        }
      },
    });
  }
  // The path exists but not with this method: 405 with the methods it does take.
  for (const { path, methods: allowed } of byShape.values()) {
    for (const method of refusable.filter((m) => !allowed.has(m as HttpMethod))) {
      app.route({
        method,
        url: toFastifyPath(path),
        handler: async () => {
          throw new ApiProblem("method_not_allowed", `${method} is not allowed on ${path}.`, {
            headers: { Allow: [...allowed].join(", ") },
            extra: { allowed: [...allowed] },
          });
        },
      });
    }
  }
}

/** JSON text is UTF-8 (RFC 8259); other bytes are refused rather than stored as U+FFFD. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The raw HTTP answer to a request Node could not parse; nothing of it is echoed. */
function clientErrorResponse(error: NodeJS.ErrnoException, baseUrl: string): string {
  const problem =
    error.code === "HPE_HEADER_OVERFLOW"
      ? new ApiProblem(
          "malformed_request",
          "The request line and headers are larger than 16 KiB; send a long filter in the body of the list's POST <path>/q twin.",
          { errors: [{ pointer: "/headers", reason: "too_long", maximum: 16 * 1024 }] },
        )
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? new ApiProblem("malformed_request", "The request did not arrive completely in time.")
        : new ApiProblem("malformed_request", "The request is not valid HTTP/1.1.");
  const requestId = newRequestId();
  // No `instance`: the request line is what could not be read.
  const { instance: _, ...doc } = problem.toDocument(baseUrl, "");
  const body = Buffer.from(JSON.stringify(doc));
  return [
    `HTTP/1.1 ${problem.status} Bad Request`,
    "content-type: application/problem+json",
    `content-length: ${body.length}`,
    `x-request-id: ${requestId}`,
    "connection: close",
    "",
    body.toString(),
  ].join("\r\n");
}

/** Maps Fastify's own failures (body parsing, limits) to the API's codes. */
function fromFrameworkError(error: FastifyError, requestId: string): ApiProblem {
  switch (error.statusCode) {
    case 413:
      return new ApiProblem("payload_too_large", "The body is larger than 1 MiB.");
    case 415:
      return new ApiProblem("unsupported_media_type", "Send bodies as application/json.", {
        errors: [{ pointer: "/headers/Content-Type", allowed: ["application/json"] }],
      });
    case 400:
      return new ApiProblem("malformed_request", `The request cannot be parsed: ${error.message}`);
    default:
      if (process.env.VIGIL_SANDBOX_DEBUG) console.error(error);
      return new ApiProblem("internal_error", "An unexpected failure.", { errors: [{ traceId: requestId }] });
  }
}
