/**
 * Property-based fuzzing of the sandbox over real HTTP (issue 16). Every
 * operation of the operation table gets hostile bodies, query strings,
 * path parameters and headers from one account. Each answer must be below
 * 500, carry `x-request-id`, and be a problem document when it is an error;
 * the other account's data must not change.
 *
 * In `npm test` the run is bounded by time (about 20 s of requests). For a
 * long local run: `VIGIL_FUZZ_RUNS=20000 npx vitest run test/sandbox/fuzz/`
 * (runs, one request each, no time bound); `VIGIL_FUZZ_SEED` replays a seed.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { request } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import { kinds } from "../../../src/kinds/index.ts";
import type { Operation } from "../../../src/sandbox/core/operation.ts";
import { allOperations } from "../../../src/sandbox/operations.ts";
import { kindCases } from "../../helpers/kind-cases.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import {
  bodyArbitrary,
  type HeaderChoice,
  headerArbitrary,
  prototypeNames,
  queryArbitrary,
} from "./arbitraries.ts";

const runs = Number(process.env.VIGIL_FUZZ_RUNS ?? 0);
const seed = process.env.VIGIL_FUZZ_SEED === undefined ? undefined : Number(process.env.VIGIL_FUZZ_SEED);
const timeBudgetMs = 20_000;

let sb: TestSandbox;
/** The account every fuzzed request acts as. */
let actor: Client & { accountId: string };
/** The account no request may change. */
let bystander: Client & { accountId: string };
/** Ids by collection (`monitor`, `contact`, ...), of each account. */
const ids = { actor: new Map<string, string[]>(), bystander: new Map<string, string[]>() };

/** Creates one object of every kind in an account, and answers their ids by collection segment. */
async function seed_(c: Client): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const add = (segment: string, id: string) => out.set(segment, [...(out.get(segment) ?? []), id]);
  const create = async (path: string, body: Record<string, unknown>, method = "POST") => {
    const res = await c.call(method, path, { body, headers: { "idempotency-key": randomUUID() } });
    expect(res.status, `${path} ${res.text}`).toBeLessThan(300);
    return res.body.id as string;
  };
  const monitorId = await create("/monitor", {
    type: "http",
    url: `https://example.com/${randomUUID()}`,
    locations: { pools: ["allworld"] },
  });
  add("monitor", monitorId);
  const contactId = await create(
    "/contact",
    kindCases.contact({ monitorId, contactId: "", pageId: "" }).members,
  );
  add("contact", contactId);
  const targets = { monitorId, contactId, pageId: "" };
  add("group", await create("/contact/group", kindCases.contactGroup!(targets).members));
  add("maintenance", await create("/maintenance", kindCases.maintenance!(targets).members));
  // A status page's components are children with their own routes (the kind's mapping writes them).
  const { slug, title } = kindCases.statusPage!(targets).members;
  add("statuspage", await create("/statuspage", { slug, title }));
  add("webhook", await create("/webhook", kindCases.webhook!(targets).members));
  // Reports go to email contacts only.
  const emailId = await create("/contact", { type: "email", address: `${randomUUID()}@example.com` });
  add("contact", emailId);
  for (const [kind, to] of [
    ["alert", contactId],
    ["report", emailId],
  ] as const) {
    const { monitorId: _m, contactId: _c, ...members } = kindCases[`${kind}Subscription`]!(targets).members;
    add(kind, await create(`/monitor/${monitorId}/${kind}/${to}`, members, "PUT"));
  }
  return out;
}

/** Everything the bystander can read of its own account, by collection. */
async function snapshot(c: Client): Promise<Record<string, unknown>> {
  // Kinds listed only under a parent (a page's templates) have no account-wide list to snapshot.
  const listed = kinds.filter((k) => !k.paths.collection.includes("{"));
  const paths = ["/account", ...listed.map((k) => `${k.paths.collection}?limit=500`)];
  const out: Record<string, unknown> = {};
  await Promise.all(
    paths.map(async (path) => {
      const res = await c.get(path);
      expect(res.status, `${path} ${res.text}`).toBe(200);
      out[path] = res.body.data ?? res.body;
    }),
  );
  return out;
}

/** Valid members per create path, for bodies that are valid but for one hostile member. */
function validBodies(): Map<string, Record<string, unknown>> {
  const monitorId = ids.actor.get("monitor")![0]!;
  const contactId = ids.actor.get("contact")![0]!;
  const pageId = ids.actor.get("statuspage")![0]!;
  const targets = { monitorId, contactId, pageId };
  const out = new Map<string, Record<string, unknown>>([
    ["/monitor", { type: "http", url: "https://example.com/fuzz", locations: { pools: ["allworld"] } }],
  ]);
  // Two-phase bulk deletes and bulk jobs: a filter or items to make hostile at any depth.
  for (const collection of ["/monitor", "/contact"]) {
    out.set(`${collection}/bulk-delete-validate`, { filter: { tag: ["fuzz"] } });
    out.set(`${collection}/bulk-delete`, { filter: { tag: ["fuzz"] }, expectedCount: 0 });
  }
  out.set("/monitor/bulk", { items: [out.get("/monitor")!] });
  out.set("/monitor/bulk-validate", { items: [out.get("/monitor")!] });
  for (const kind of kinds) {
    const make = kindCases[kind.name as keyof typeof kindCases];
    if (!make) continue;
    const { members, change } = make(targets);
    // A kind listed under its parent takes the parent's id from the route (`/statuspage/{id}/template`).
    const inRoute = kind.paths.collection.includes("{") ? kind.relations?.parent?.member : undefined;
    out.set(
      kind.paths.collection,
      Object.fromEntries(Object.entries(members).filter(([m]) => m !== inRoute)),
    );
    out.set(kind.paths.item, change);
  }
  return out;
}

const hostileSegments = fc.oneof(
  fc.constantFrom(...prototypeNames, "0", "-1", "%00", "%2e%2e", "a%2Fb", "%zz", "null", "x".repeat(300)),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

/** A path with its parameters filled: the actor's ids (to reach handlers), the bystander's, or hostile text. */
function pathArbitrary(op: Operation): fc.Arbitrary<string> {
  const params = [...op.path.matchAll(/\/([^/{]*)\/\{(\w+)\}/g)].map(([, before]) => before ?? "");
  if (params.length === 0 && !op.path.includes("{")) return fc.constant(op.path);
  const segment = (before: string) => {
    const own = ids.actor.get(before) ?? [...ids.actor.values()].flat();
    const other = ids.bystander.get(before) ?? [...ids.bystander.values()].flat();
    return fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...own) },
      { weight: 2, arbitrary: fc.constantFrom(...other) },
      { weight: 2, arbitrary: hostileSegments },
    );
  };
  // Parameters not preceded by a literal segment (`/check/{dbId}/{id}`) take any id.
  const all = [...op.path.matchAll(/\{(\w+)\}/g)].map((_, i) => params[i] ?? "");
  return fc.tuple(...all.map(segment)).map((values) => {
    let i = 0;
    return op.path.replace(/\{\w+\}/g, () => values[i++]!);
  });
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

interface Generated {
  method: string;
  path: string;
  query: string | null;
  body: Buffer | null;
  headers: HeaderChoice;
}

let sent = 0;

async function send(req: Sent) {
  sent++;
  const res = await request(`${sb.url}${req.path}`, {
    method: req.method as "POST",
    headers: req.headers,
    body: req.body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

const show = (req: Sent) =>
  `${req.method} ${req.path.slice(0, 300)} ${JSON.stringify(req.headers).slice(0, 300)} ${req.body?.toString().slice(0, 300) ?? ""}`;

/** Query names the operation does not take (own names only: `constructor` is not one of them). */
function unknownQueryNames(op: Operation, path: string): string[] {
  const search = path.includes("?") ? path.slice(path.indexOf("?") + 1) : "";
  const taken = op.queryInBody ? [] : Object.keys(op.query ?? {});
  return [...new URLSearchParams(search).keys()].filter((name) => !taken.includes(name));
}

/** The invariants of every answer. Throws with the request when one does not hold. */
function judge(op: Operation, req: Sent, res: Awaited<ReturnType<typeof send>>) {
  const fail = (why: string) => {
    throw new Error(`${why}\n  request: ${show(req)}\n  answer: ${res.status} ${res.text.slice(0, 500)}`);
  };
  if (res.status >= 500) fail(`answered ${res.status}`);
  // A query name the operation does not take is refused (422 unknown_parameter, or an earlier refusal).
  // Only where the path has no parameters: a hostile segment (`/monitor/type`) can reach another route.
  const unknown = op.path.includes("{") ? [] : unknownQueryNames(op, req.path);
  if (res.status < 400 && req.method === op.method && unknown.length > 0)
    fail(`took unknown query names ${JSON.stringify(unknown)}`);
  if (typeof res.headers["x-request-id"] !== "string") fail("no x-request-id");
  if (res.status < 400) return;
  if (!String(res.headers["content-type"]).startsWith("application/problem+json")) {
    fail(`error without a problem document (${res.headers["content-type"]})`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(res.text);
  } catch {
    return fail("problem document is not JSON");
  }
  if (doc.status !== res.status) fail("problem status differs from the HTTP status");
  for (const member of ["type", "title", "code"])
    if (typeof doc[member] !== "string") fail(`problem lacks ${member}`);
}

let before: Record<string, unknown>;

beforeAll(async () => {
  sb = await startTestSandbox();
  actor = await sb.account({ plan: "enterprise" });
  bystander = await sb.account({ plan: "enterprise" });
  ids.actor = await seed_(actor);
  ids.bystander = await seed_(bystander);
  // The bystander's own checks and deliveries would change its data while the fuzz runs: pause them.
  for (const [collection, id] of [
    ["monitor", ids.bystander.get("monitor")![0]],
    ["webhook", ids.bystander.get("webhook")![0]],
  ]) {
    const res = await bystander.patch(`/${collection}/${id}`, { enabled: false });
    expect(res.status, res.text).toBe(200);
  }
  before = await snapshot(bystander);
}, 60_000);
afterAll(() => sb?.close());

it(
  "no hostile request answers 5xx or a non-problem error, or changes another account",
  async () => {
    // `/_sandbox/` routes too: with the actor's token they must refuse, or they could reach any account.
    const operations = allOperations();
    const valid = validBodies();
    const requestOf = (op: Operation): fc.Arbitrary<Generated> =>
      fc.record({
        method: fc.oneof(
          { weight: 9, arbitrary: fc.constant(op.method) },
          { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS") },
        ),
        path: pathArbitrary(op),
        query: fc.option(queryArbitrary(op), { freq: 2 }),
        body: fc.option(bodyArbitrary(op, valid.get(op.path)), { freq: op.method === "GET" ? 8 : 1 }),
        headers: headerArbitrary,
      });
    const byId = new Map(operations.map((op) => [`${op.method} ${op.path}`, op]));
    // The operation by name, so that a counterexample prints as its method and path.
    const arbitrary = fc
      .constantFrom(...byId.keys())
      .chain((name) => requestOf(byId.get(name)!).map((r) => ({ name, r })));

    const toSent = (r: Generated): Sent => {
      const choice = r.headers;
      const headers: Record<string, string> = { ...choice.headers };
      if (choice.auth === "token") headers.authorization = `Bearer ${actor.token}`;
      else if (choice.auth === "token+junk") headers.authorization = `Bearer ${actor.token}.junk`;
      else if (choice.auth !== "none") headers.authorization = choice.auth;
      const body = r.body ?? undefined;
      if (body && headers["content-type"] === undefined) headers["content-type"] = "application/json";
      if (!body) delete headers["content-type"];
      const query = r.query === null ? "" : `?${r.query}`;
      return { method: r.method, path: `${r.path}${query}`, headers, body };
    };

    let writes = 0;
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ name, r }) => {
        const req = toSent(r);
        const res = await send(req);
        judge(byId.get(name)!, req, res);
        // After each accepted write, the bystander's data is as it was.
        if (res.status < 300 && req.method !== "GET") {
          writes++;
          const now = await snapshot(bystander);
          const changed = Object.keys(now).filter(
            (k) => JSON.stringify(now[k]) !== JSON.stringify(before[k]),
          );
          if (changed.length > 0) {
            const diff = changed.map(
              (k) => `${k}: ${JSON.stringify(before[k])} -> ${JSON.stringify(now[k])}`,
            );
            before = now;
            throw new Error(`the bystander's data changed after: ${show(req)}\n${diff.join("\n")}`);
          }
        }
      }),
      {
        ...(runs > 0 ? { numRuns: runs } : { numRuns: 1_000_000, interruptAfterTimeLimit: timeBudgetMs }),
        ...(seed !== undefined && { seed }),
        markInterruptAsFailure: false,
      },
    );
    // Jobs and deliveries started by the fuzzed writes run in the background: let them finish, then look again.
    await sb.settle();
    expect(await snapshot(bystander)).toEqual(before);
    console.log(`sandbox fuzz: ${sent} requests (${writes} accepted writes), 0 failures`);
  },
  runs > 0 ? 60_000 + runs * 200 : 60_000,
);
