/**
 * Every writable member of every kind and every variant, round-tripped through the engine and a real sandbox:
 * each member is set to a value generated from its schema (`test/helpers/member-values.ts`: not its default,
 * within its bounds, of its enums and forms, referencing fresh objects of the kinds it references) on an
 * object of its kind's variant (a monitor type, a contact channel), applied, read back, and the next plan
 * must be empty. A member the sandbox drops, or reads back otherwise, shows as a change and fails here: so
 * a member added to a kind works everywhere or fails this test. The objects the members are set on are the
 * every-kind fixture's (one per kind and variant), so that their other members hold valid values.
 */
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountAllowances,
  applyChanges,
  ConfigError,
  type DesiredResource,
  type EngineOptions,
  engineKind,
  isRef,
  type KindName,
  MemoryStateStore,
  PlanError,
  planChanges,
  readsFor,
} from "../../../src/engine/index.ts";
import { type AccountView, devices, inputSchemaOf, kinds } from "../../../src/kinds/index.ts";
import { valuesOf } from "../../helpers/member-values.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { everyKindFixture } from "../fixtures/every-kind.ts";
import { engineAccount } from "./helpers.ts";
import {
  accepted,
  definitionOf,
  getAt,
  type Members,
  memberPaths,
  optionalPaths,
  refusalOf,
  said,
  schemaAt,
  setAt,
  variantKey,
  withoutAt,
  withoutInputOnly,
} from "./round-trip-members.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb?.close());

/** One member of one variant: the values to try, each on its own object. */
interface Entry {
  address: string;
  kind: KindName;
  variant: string;
  path: string[];
  /** Each value on the object as it is first, then on the object without its optional members. */
  tries: { resource: DesiredResource; value: unknown }[];
  at: number;
  /** `inapplicable`: the kind's rules refuse every value on this variant (only http contacts take headers). */
  status: "trying" | "applied" | "inapplicable" | "refused";
  refusals: string[];
}

const label = (e: Entry) => `${e.kind}${e.variant === e.kind ? "" : ` (${e.variant})`} ${e.path.join(".")}`;

/**
 * The objects of the test: the every-kind fixture (which fresh objects reference), an object per member of
 * each kind's variant, and the fresh objects those reference, each from a fixture of its own tag so that no
 * two share a natural key.
 */
class RoundTrip {
  readonly shared = everyKindFixture("rt");
  readonly entries: Entry[] = [];
  readonly #targets = new Map<string, DesiredResource>();
  readonly #kindAt = new Map(this.shared.map((r) => [r.address, r.kind]));
  #n = 0;

  readonly account: AccountView;
  readonly hints: Readonly<Record<string, readonly unknown[]>>;

  constructor(account: AccountView, hints: Readonly<Record<string, readonly unknown[]>>) {
    this.account = account;
    this.hints = hints;
    for (const [key, base] of this.bases()) this.#add(key.slice(base.kind.length + 1), base);
  }

  /** One object of the fixture per kind and variant. */
  bases(): Map<string, DesiredResource> {
    const out = new Map<string, DesiredResource>();
    for (const r of this.shared) {
      const key = `${r.kind}/${variantKey(definitionOf(r.kind), r.members)}`;
      if (!out.has(key)) out.set(key, r);
    }
    return out;
  }

  /** A fresh object of a kind; what it references is the shared fixture's. */
  readonly fresh = (kind: string): { $ref: string } => {
    const i = this.#n++;
    const source = everyKindFixture(`rtt${i}`).find((r) => r.kind === kind)!;
    const address = `${engineKind(source.kind).section}.rt-target-${i}`;
    this.#targets.set(address, { ...source, address });
    return { $ref: address };
  };

  #freshRefs(value: unknown): unknown {
    if (isRef(value)) return this.fresh(this.#kindAt.get(value.$ref)!);
    if (Array.isArray(value)) return value.map((v) => this.#freshRefs(v));
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.#freshRefs(v)]));
    return value;
  }

  #add(variant: string, base: DesiredResource): void {
    const definition = definitionOf(base.kind);
    const optional = optionalPaths(
      { ...base, members: withoutInputOnly(definition, base.members) },
      this.account,
    );
    for (const path of memberPaths(definition, base.members)) {
      const i = this.#n++;
      const own = everyKindFixture(`rt${i}`).find((r) => r.address === base.address)!;
      const full = withoutInputOnly(definition, this.#freshRefs(own.members) as Members);
      const minimal = optional.filter((p) => !isDeepStrictEqual(p, path)).reduce(withoutAt, full);
      const values = valuesOf(schemaAt(inputSchemaOf(definition, full), path), this.#context(full), path);
      const address = `${engineKind(base.kind).section}.rt-${i}`;
      const tries = [full, minimal].flatMap((m) =>
        values.map((value) => ({
          resource: { address, kind: base.kind, members: setAt(m, path, value) },
          value,
        })),
      );
      const taken = tries
        .map((t) => ({ ...t, resource: accepted(t.resource, path, this.account) }))
        .filter((t): t is (typeof tries)[number] => t.resource !== undefined)
        .filter((t, j, all) => all.findIndex((u) => isDeepStrictEqual(u.resource, t.resource)) === j);
      const why = () =>
        tries[0] ? said(refusalOf(tries[0].resource, this.account)!) : "no value of its schema";
      this.entries.push({
        ...{ address, kind: base.kind, variant, path, tries: taken, at: 0 },
        status: taken.length > 0 ? "trying" : "inapplicable",
        refusals: taken.length > 0 ? [] : [why()],
      });
    }
  }

  #context(members: Members) {
    return {
      reference: this.fresh,
      hint: (at: readonly string[]) => this.hints[at.join(".")],
      current: (at: readonly string[]) => getAt(members, at),
      next: () => this.#n++,
    };
  }

  /** What to apply: the shared fixture, each member's current try, and the fresh objects those reference. */
  desired(): DesiredResource[] {
    const written = this.entries
      .filter((e) => e.status === "trying" || e.status === "applied")
      .map((e) => e.tries[e.at]!.resource);
    const referenced = new Set(JSON.stringify(written).match(/rt-target-\d+/g));
    const used = [...this.#targets.values()].filter((t) => referenced.has(t.address.split(".").at(-1)!));
    return [...this.shared, ...used, ...written];
  }
}

/** The addresses an apply, or the plan before it, refused, with why; `applied` when the rest was written. */
async function applyOnce(options: Omit<EngineOptions, "desired">, trip: RoundTrip) {
  const refused = new Map<string, string>();
  try {
    const { result } = await applyChanges({ ...options, desired: trip.desired() });
    for (const f of result.failures) refused.set(f.address, f.message);
    return { refused, applied: true };
  } catch (error) {
    const found =
      error instanceof PlanError
        ? [...error.problems, ...(error.accountCheck?.diagnostics ?? [])]
        : error instanceof ConfigError
          ? error.diagnostics
          : [];
    for (const d of found) refused.set(d.address, d.message);
    if (!trip.entries.some((e) => e.status === "trying" && refused.has(e.address))) throw error;
    return { refused, applied: false };
  }
}

/** Applies until every member is written with one of its values, or the service refused them all. */
async function applyUntilTaken(options: Omit<EngineOptions, "desired">, trip: RoundTrip): Promise<void> {
  for (let round = 0; trip.entries.some((e) => e.status === "trying"); round++) {
    expect(round, "rounds of refused values").toBeLessThan(30);
    const { refused, applied } = await applyOnce(options, trip);
    for (const e of trip.entries.filter((x) => x.status === "trying")) {
      const refusal = refused.get(e.address);
      if (refusal === undefined) {
        if (applied) e.status = "applied";
        continue;
      }
      e.refusals.push(refusal);
      if (++e.at === e.tries.length) e.status = "refused";
    }
  }
}

describe("every writable member of every kind and variant", () => {
  it("is applied, read back, and the next plan is empty", { timeout: 600_000 }, async () => {
    const { account, ops, time } = await engineAccount(sb);
    const view = await new AccountAllowances(ops).view(readsFor(kinds.map((k) => k.name)));
    const pools = ((await account.get("/agent/pool")).body.data as { id: string }[]).map((p) => p.id);
    const agents = (await account.get("/agent?limit=500")).body.data as { id: string; live?: boolean }[];
    // What the schemas cannot say: the catalogue's ids, the account's intervals, a cron expression.
    const trip = new RoundTrip(view, {
      interval: view.intervals,
      cronSchedule: ["*/10 * * * *", "0 * * * *"],
      "locations.pools.*": pools.filter((p) => p !== "allworld"),
      "locations.excludedAgents.*": agents
        .filter((a) => a.live !== false)
        .map((a) => a.id)
        .slice(0, 2),
      "settings.deviceEmulation": devices,
    });
    for (const definition of kinds)
      for (const variant of Object.keys(definition.variants?.schemas ?? {}))
        expect(trip.bases().has(`${definition.name}/${variant}`), `${definition.name} ${variant}`).toBe(true);

    const store = new MemoryStateStore();
    await applyUntilTaken({ ops, store, time }, trip);
    const refused = trip.entries.filter((e) => e.status === "refused");
    expect(
      refused.map((e) => `${label(e)}: the service refuses every value the kind takes: ${e.refusals.at(-1)}`),
    ).toEqual([]);

    // Read back: the engine finds every object as it was written.
    const { plan } = await planChanges({ ops, store, desired: trip.desired(), time });
    const byAddress = new Map(trip.entries.map((e) => [e.address, e]));
    const differing = plan.actions
      .filter((a) => a.action !== "no-op")
      .map((a) => {
        const e = byAddress.get(a.address);
        const what = e ? `${label(e)} = ${JSON.stringify(e.tries[e.at]!.value)}` : a.address;
        return `${what}: ${a.action} ${JSON.stringify(a.changes)}`;
      });
    expect(differing).toEqual([]);

    // Every member is written and read back on some variant of its kind.
    const member = (e: Entry) => `${e.kind} ${e.path.join(".")}`;
    const verified = new Set(trip.entries.filter((e) => e.status === "applied").map(member));
    const never = trip.entries
      .filter((e) => !verified.has(member(e)))
      .map((e) => `${label(e)}: ${e.refusals[0]}`);
    expect(never).toEqual([]);
    expect(verified.size).toBeGreaterThan(100);
  });
});
