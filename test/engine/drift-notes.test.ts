import { describe, expect, it } from "vitest";
import { driftNotes } from "../../src/engine/drift-notes.ts";
import { engineKind } from "../../src/engine/kinds/index.ts";

/** The drift-note rule, member by member (docs/engine.md, "Drift notes"). */
const monitor = engineKind("monitor");
const desired = { type: "http", url: "https://a.example.com/", locations: { pools: ["allworld"] } };
/** A live http monitor as the service stores the desired one: every default in place. */
const live = {
  id: "m-1",
  ...desired,
  interval: 180,
  enabled: true,
  openStat: false,
  tags: [],
  settings: { method: "G", timeout: 40000, followRedirect: true },
};
const notesOf = (d: Record<string, unknown>, l: Record<string, unknown>, lifecycle = {}) =>
  driftNotes({ address: "monitors.a", kind: monitor, desired: d, live: { ...live, ...l }, lifecycle }).map(
    (n) => [n.path, n.default, n.live],
  );

describe("drift notes", () => {
  it("an unset member away from its default is a note; at its default, or written, it is none", () => {
    expect(notesOf(desired, {})).toEqual([]);
    expect(notesOf(desired, { enabled: false, openStat: true })).toEqual([
      ["/enabled", true, false],
      ["/openStat", false, true],
    ]);
    // Written in the configuration: managed, so a change to revert, never a note.
    expect(notesOf({ ...desired, enabled: true }, { enabled: false })).toEqual([]);
  });

  it("judges one object deep: settings the configuration leaves out", () => {
    expect(notesOf(desired, { settings: { ...live.settings, timeout: 5000 } })).toEqual([
      ["/settings/timeout", 40000, 5000],
    ]);
    expect(
      notesOf({ ...desired, settings: { timeout: 5000 } }, { settings: { ...live.settings, timeout: 5000 } }),
    ).toEqual([]);
  });

  it("the interval's stored default follows the type's floor; a fixed cadence has none", () => {
    const waterfall = { ...desired, type: "waterfall" };
    expect(notesOf(waterfall, { type: "waterfall", interval: 600, settings: {} })).toEqual([]);
    expect(notesOf(waterfall, { type: "waterfall", interval: 900, settings: {} })).toEqual([
      ["/interval", 600, 900],
    ]);
    const ssl = { ...desired, type: "sslExp" };
    expect(notesOf(ssl, { type: "sslExp", interval: 21600, settings: {} })).toEqual([]);
  });

  it("ignoreChanges and a preset's settings are not judged", () => {
    expect(notesOf(desired, { enabled: false }, { ignoreChanges: ["enabled"] })).toEqual([]);
    const preset = { ...desired, settings: { preset: "bl:ru" } };
    expect(notesOf(preset, { settings: { preset: "bl:ru", timeout: 30000, maxRedirects: 5 } })).toEqual([]);
  });
});
