import { describe, expect, it, vi } from "vitest";
import { Store } from "../../src/sandbox/core/store.ts";

/** `Store.afterCommit`: work that must follow committed state only (in-memory indexes). */
describe("Store.afterCommit", () => {
  const doc = (id: string) => ({ id, accountId: "a1" });

  it("runs outside any transaction at once", () => {
    const store = new Store();
    const ran: string[] = [];
    store.afterCommit(() => ran.push("now"));
    expect(ran).toEqual(["now"]);
  });

  it("waits for the outermost commit, then runs in order, outside the transaction", () => {
    const store = new Store();
    const ran: string[] = [];
    store.transaction(() => {
      store.put("things", doc("t1"));
      store.afterCommit(() =>
        ran.push(`first:${store.inTransaction}:${store.get("things", "t1") !== undefined}`),
      );
      store.transaction(() => store.afterCommit(() => ran.push("nested")));
      store.afterCommit(() => ran.push("last"));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(["first:false:true", "nested", "last"]);
  });

  it("is discarded when its transaction rolls back", () => {
    const store = new Store();
    const ran: string[] = [];
    expect(() =>
      store.transaction(() => {
        store.afterCommit(() => ran.push("rolled back"));
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(ran).toEqual([]);
    // The next transaction starts clean: nothing left over runs with it.
    store.transaction(() => store.afterCommit(() => ran.push("next")));
    expect(ran).toEqual(["next"]);
  });

  it("is discarded with its savepoint, while the outer transaction's hooks still run", () => {
    const store = new Store();
    const ran: string[] = [];
    store.transaction(() => {
      store.afterCommit(() => ran.push("before"));
      try {
        store.transaction(() => {
          store.afterCommit(() => ran.push("savepoint"));
          throw new Error("undo the savepoint");
        });
      } catch {}
      store.afterCommit(() => ran.push("after"));
    });
    expect(ran).toEqual(["before", "after"]);
  });

  it("is discarded by a dry run, inside or outside a transaction", () => {
    const store = new Store();
    const ran: string[] = [];
    store.dryRun(() => {
      store.afterCommit(() => ran.push("dry, top level"));
      store.transaction(() => store.afterCommit(() => ran.push("dry, nested transaction")));
    });
    expect(ran).toEqual([]);
    store.transaction(() => {
      store.afterCommit(() => ran.push("outer"));
      store.dryRun(() => store.afterCommit(() => ran.push("dry, inside a transaction")));
    });
    expect(ran).toEqual(["outer"]);
  });

  it("is discarded when the file refuses the commit", () => {
    const store = new Store(":memory:");
    const ran: string[] = [];
    const failing = { id: "t1", accountId: "a1", toJSON: () => BigInt(1) };
    expect(() =>
      store.transaction(() => {
        store.put("things", failing);
        store.afterCommit(() => ran.push("never"));
      }),
    ).toThrow();
    expect(ran).toEqual([]);
    expect(store.get("things", "t1")).toBeUndefined();
    store.close();
  });

  it("a hook that throws does not make the committed transaction look failed", () => {
    const store = new Store();
    const ran: string[] = [];
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const result = store.transaction(() => {
        store.put("things", doc("t1"));
        store.afterCommit(() => {
          throw new Error("hook failed");
        });
        store.afterCommit(() => ran.push("still runs"));
        return "committed";
      });
      expect(result).toBe("committed");
      expect(ran).toEqual(["still runs"]);
      expect(store.get("things", "t1")).toBeDefined();
      expect(error).toHaveBeenCalledOnce();
    } finally {
      error.mockRestore();
    }
  });
});
