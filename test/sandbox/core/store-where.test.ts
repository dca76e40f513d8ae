import { describe, expect, it } from "vitest";
import { type Doc, Store } from "../../../src/sandbox/core/store.ts";

interface Sub extends Doc {
  monitorId: string;
  contactId: string;
}
const sub = (id: string, monitorId: string, contactId = "c1", accountId = "a1"): Sub => ({
  id,
  accountId,
  monitorId,
  contactId,
});
const ids = (docs: Doc[]) => docs.map((d) => d.id);

describe("Store.where: documents by one member, from an index kept with every write", () => {
  it("answers the account's documents with that value, in the order `all` keeps", () => {
    const store = new Store();
    store.put("sub", sub("s1", "m1"));
    store.put("sub", sub("s2", "m2"));
    store.put("sub", sub("s3", "m1"));
    store.put("sub", sub("s4", "m1", "c1", "a2"));
    expect(ids(store.where("sub", "a1", "monitorId", "m1"))).toEqual(["s1", "s3"]);
    // Built on first use, then kept: a later put, a rewrite in place, a move to another value, a removal.
    store.put("sub", sub("s5", "m1"));
    store.put("sub", { ...sub("s1", "m1"), contactId: "c2" });
    expect(ids(store.where("sub", "a1", "monitorId", "m1"))).toEqual(["s1", "s3", "s5"]);
    expect(ids(store.where("sub", "a1", "contactId", "c2"))).toEqual(["s1"]);
    store.put("sub", sub("s3", "m2"));
    store.remove("sub", "s5");
    expect(ids(store.where("sub", "a1", "monitorId", "m1"))).toEqual(["s1"]);
    expect(ids(store.where("sub", "a1", "monitorId", "m2"))).toEqual(["s2", "s3"]);
    expect(ids(store.where("sub", "a2", "monitorId", "m1"))).toEqual(["s4"]);
    expect(store.where("sub", "a1", "monitorId", "none")).toEqual([]);
  });

  it("follows a transaction undone and a snapshot restored", () => {
    const store = new Store();
    store.put("sub", sub("s1", "m1"));
    expect(ids(store.where("sub", "a1", "monitorId", "m1"))).toEqual(["s1"]);
    const snapshot = store.snapshot();
    expect(() =>
      store.transaction(() => {
        store.put("sub", sub("s2", "m1"));
        store.put("sub", sub("s1", "m9"));
        throw new Error("undone");
      }),
    ).toThrow("undone");
    expect(ids(store.where("sub", "a1", "monitorId", "m1"))).toEqual(["s1"]);
    expect(store.where("sub", "a1", "monitorId", "m9")).toEqual([]);
    store.put("sub", sub("s3", "m1"));
    store.restore(snapshot);
    expect(ids(store.where("sub", "a1", "monitorId", "m1"))).toEqual(["s1"]);
  });
});
