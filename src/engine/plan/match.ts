/**
 * The plan's matching phase: which live object each address of the config is. An import names it by id; else
 * the state's id does; else a live object with the same natural key that nothing else manages is adopted.
 */
import { engineKind, type Row } from "../kinds/index.ts";
import type { ActionType, DesiredResource, KindName, State } from "../model.ts";
import { type Inventory, liveWithKey } from "../refresh.ts";
import { deletedOutside, type PlanProblem } from "./problem.ts";

export interface Match {
  /** The action before the diff: an update may still become a replace or a no-op. */
  action: Extract<ActionType, "import" | "update" | "create">;
  live?: Row;
  reasons: string[];
  problems: PlanProblem[];
}

export interface MatcherInput {
  state: State;
  inventory: Inventory;
  /** The addresses of the config. */
  desired: ReadonlyMap<string, DesiredResource>;
  /** Address → id of the objects to import. */
  imports: ReadonlyMap<string, string>;
  stateMissing?: boolean | undefined;
}

/** Matches addresses in the plan's order: an object matched once is claimed, and no later address takes it. */
export class LiveMatcher {
  /** Which address manages each live object, by `kind/id`. */
  private readonly managedBy = new Map<string, string>();
  private readonly claimed = new Set<string>();
  /** Old address → new address, for objects adopted from an address that leaves the config. */
  readonly moved = new Map<string, string>();

  private readonly input: MatcherInput;

  constructor(input: MatcherInput) {
    this.input = input;
    for (const [address, r] of Object.entries(input.state.resources))
      if (r.id) this.managedBy.set(`${r.kind}/${r.id}`, address);
  }

  /** The match of one address, whose references are resolved in `members`. */
  match(r: DesiredResource, members: Record<string, unknown>): Match {
    const prior = this.input.state.resources[r.address];
    // An import the state already holds (the same id at the address) is done: the resource is managed.
    const importId = this.input.imports.get(r.address);
    let found: Match;
    if (importId !== undefined && !(prior?.id !== undefined && importId === prior.id))
      found = this.imported(r, importId);
    else if (prior?.id) {
      const live = this.liveOf(r.kind, prior.id);
      found = live
        ? { action: "update", live, reasons: [], problems: [] }
        : { action: "create", reasons: [deletedOutside], problems: [] };
    } else found = this.adopted(r, members);
    if (found.live) this.claimed.add(`${r.kind}/${found.live.id}`);
    return found;
  }

  private liveOf(kind: KindName, id: string): Row | undefined {
    return id ? this.input.inventory.byId.get(kind)?.get(id) : undefined;
  }

  private imported(r: DesiredResource, id: string): Match {
    const live = this.liveOf(r.kind, id);
    const owner = this.managedBy.get(`${r.kind}/${id}`);
    const problems: PlanProblem[] = [];
    if (!live)
      problems.push({
        address: r.address,
        code: "import_not_found",
        data: { kind: r.kind, id },
        message: `import ${r.address}: the account has no ${r.kind} with id ${id}`,
      });
    else if (owner && owner !== r.address)
      problems.push({
        address: r.address,
        code: "import_managed_elsewhere",
        data: { id, owner },
        message: `import ${r.address}: ${id} is already managed as ${owner}`,
      });
    return { action: "import", ...(live && { live }), reasons: [`import of ${id}`], problems };
  }

  private adopted(r: DesiredResource, members: Record<string, unknown>): Match {
    const found = this.adoptable(r, members);
    if (found === "ambiguous")
      return {
        action: "create",
        reasons: [],
        problems: [
          {
            address: r.address,
            code: "ambiguous_natural_key",
            data: { kind: r.kind },
            message: `${r.address}: several live ${engineKind(r.kind).collection} match its natural key; import one by id`,
          },
        ],
      };
    if (!found) return { action: "create", reasons: [], problems: [] };
    const owner = this.managedBy.get(`${r.kind}/${found.id}`);
    if (owner) this.moved.set(owner, r.address);
    const reason = owner
      ? `moved from ${owner}`
      : this.input.stateMissing
        ? "adopted by natural key (no state)"
        : "adopted by natural key";
    return { action: "import", live: found, reasons: [reason], problems: [] };
  }

  /** A live object with the same natural key that no other address manages (or whose address leaves the config). */
  private adoptable(r: DesiredResource, members: Record<string, unknown>): Row | "ambiguous" | undefined {
    const kind = engineKind(r.kind);
    const key = kind.naturalKey(kind.normalizeDesired(members));
    if (key === undefined) return undefined;
    const matches = liveWithKey(this.input.inventory, r.kind, key).filter((row) => {
      const owner = this.managedBy.get(`${r.kind}/${row.id}`);
      if (owner && (owner === r.address || this.input.desired.has(owner))) return false;
      return !this.claimed.has(`${r.kind}/${row.id}`);
    });
    if (matches.length > 1) return "ambiguous";
    return matches[0];
  }
}
