/** What `vigil state` prints and decides, without a store: the subcommands' own steps. */
import { describe, expect, it } from "vitest";
import {
  historyText,
  listLines,
  removedAddresses,
  shownResource,
  workspaceLines,
} from "../../../src/cli/commands/state.ts";
import { CliError } from "../../../src/cli/errors.ts";
import { type LockHolder, newState, type State, type VersionInfo } from "../../../src/engine/index.ts";

function stateWith(resources: State["resources"]): State {
  return { ...newState(), resources };
}
const entry = (kind: State["resources"][string]["kind"], id?: string) => ({
  kind,
  ...(id !== undefined && { id }),
  naturalKey: {},
  managed: {},
});
const holder: LockHolder = {
  id: "lock-1",
  operation: "apply",
  user: "ana",
  host: "ci-7",
  pid: 42,
  version: "0.1.0",
  takenAt: "2026-05-01T10:00:00Z",
  expiresAt: "2026-05-01T10:05:00Z",
};

describe("state list", () => {
  it("sorts the addresses and says what is pending", () => {
    const state = stateWith({
      "monitors.web": {
        ...entry("monitor", "m1"),
        pending: { action: "update", idempotencyKey: "k", bodyDigest: "d", startedAt: 1 },
      },
      "contacts.ops": entry("contact"),
    });
    expect(listLines(state)).toEqual([
      "contacts.ops  contact  (create pending)",
      "monitors.web  monitor  m1  (update pending)",
    ]);
    expect(listLines(newState())).toEqual([]);
  });
});

describe("state show", () => {
  it("shows one address with its times in ISO 8601, and refuses one the state lacks", () => {
    const state = stateWith({
      "maintenance.deploy": {
        ...entry("maintenance", "w1"),
        managed: { name: "deploy", from: 1798761600 },
        pending: { action: "update", idempotencyKey: "k", bodyDigest: "d", startedAt: 1798761600 },
      },
    });
    const shown = shownResource(state, "maintenance.deploy");
    expect(shown).toMatch(/^address: maintenance\.deploy\nkind: maintenance\nid: w1\n/);
    expect(shown).toContain("from: 2027-01-01T00:00:00Z");
    expect(shown).toContain("startedAt: 2027-01-01T00:00:00Z");
    expect(() => shownResource(state, "monitors.web")).toThrow(
      new CliError("monitors.web is not in the state; vigil state list shows what is."),
    );
  });
});

describe("state rm", () => {
  it("takes each address with what nests under it, and nothing when one is missing", () => {
    const state = stateWith({
      "monitors.web": entry("monitor", "m1"),
      "monitors.web.alerts.ops": entry("alertSubscription", "s1"),
      "monitors.website": entry("monitor", "m2"),
      "contacts.ops": entry("contact", "c1"),
    });
    expect(removedAddresses(state, ["monitors.web", "contacts.ops"])).toEqual([
      "monitors.web",
      "monitors.web.alerts.ops",
      "contacts.ops",
    ]);
    expect(() => removedAddresses(state, ["contacts.ops", "contacts.gone"])).toThrow(
      "contacts.gone is not in the state; nothing was removed.",
    );
  });
});

describe("state workspaces", () => {
  it("stars the current workspace and says who holds a lock", () => {
    expect(
      workspaceLines(
        [
          { name: "default", serial: 3, savedAt: "2026-05-01T09:00:00Z" },
          { name: "staging", lock: holder },
        ],
        "staging",
      ),
    ).toEqual([
      "  default  serial 3, saved 2026-05-01T09:00:00Z",
      "* staging  (no state yet)  locked: ana@ci-7 (pid 42, vigil 0.1.0, apply) since 2026-05-01T10:00:00Z, lock id lock-1",
    ]);
  });
});

describe("state history", () => {
  const version = (serial: number, withHolder: boolean): VersionInfo => ({
    serial,
    lineage: "l",
    savedAt: `2026-05-0${serial}T00:00:00Z`,
    ...(withHolder && { holder: { ...holder, ciUrl: "https://ci.example.com/run/9" } }),
    summary: { added: 1, changed: 0, removed: 0, pending: 0, addresses: ["monitors.web"] },
  });

  it("says who saved each version, and how to page on when the page is full", () => {
    expect(historyText([version(2, true), version(1, false)], 2)).toBe(
      [
        "2  2026-05-02T00:00:00Z  apply by ana@ci-7, lock lock-1, https://ci.example.com/run/9",
        "    +1 ~0 -0  monitors.web",
        "1  2026-05-01T00:00:00Z  unknown run",
        "    +1 ~0 -0  monitors.web",
        "More: vigil state history --before 1",
        "",
      ].join("\n"),
    );
    expect(historyText([version(2, false)], 20)).not.toContain("More:");
    expect(historyText([], 20)).toBe("No versions.\n");
  });
});
