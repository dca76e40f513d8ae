import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, refusal } from "./fixtures.ts";

/** Paging GET /monitor: page sizes, cursors that survive changes, and cursors bound to their query. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
/** Seeded monitor ids, newest first (the default order). */
let newestFirst: string[];
const seeded = 120;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
  const ids: string[] = [];
  for (let i = 0; i < seeded; i++) {
    const name = `m-${String(i).padStart(3, "0")}`;
    ids.push(
      (
        await create(acct, {
          type: "dnsbl",
          url: `${name}.example.com`,
          name,
          tags: [i % 2 ? "odd" : "even"],
        })
      ).id,
    );
    if (i % 7 === 0) await sb.advance(1);
  }
  newestFirst = (await acct.get("/monitor?limit=500&fields=id")).body.data.map((m: { id: string }) => m.id);
  expect([...newestFirst].sort()).toEqual([...ids].sort());
});
afterAll(() => sb.close());

type Page = { data: Array<{ id: string; name?: string }>; nextCursor: string | null; hasMore: boolean };

async function page(query: string): Promise<Page> {
  const res = await acct.get(`/monitor?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function walk(query: string) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const next: Page = await page(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    pages.push(next);
    cursor = next.nextCursor;
  } while (cursor);
  return pages;
}

describe("pages", () => {
  it("answers 50 rows by default, with a cursor to the next page", async () => {
    const first = await page("fields=id");
    expect(first.data.map((m) => m.id)).toEqual(newestFirst.slice(0, 50));
    expect(first.hasMore).toBe(true);
    expect(typeof first.nextCursor).toBe("string");
  });

  it("walks every row once, in order; the last page has hasMore false and nextCursor null", async () => {
    const pages = await walk("fields=id&limit=50");
    expect(pages.map((p) => p.data.length)).toEqual([50, 50, 20]);
    expect(pages.flatMap((p) => p.data.map((m) => m.id))).toEqual(newestFirst);
    expect(pages.at(-1)).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it("takes limit up to 500 in one page", async () => {
    const all = await page("fields=id&limit=500");
    expect(all.data).toHaveLength(seeded);
    expect(all).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await page("fields=id&limit=1")).data).toHaveLength(1);
  });

  it("a page that ends exactly at the last row has no more", async () => {
    const pages = await walk("fields=id&limit=60");
    expect(pages.map((p) => p.data.length)).toEqual([60, 60]);
    expect(pages[1]).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it("walks other sorts and filters in order too", async () => {
    const byName = (await walk("fields=id,name&sort=name:desc&tag=odd&limit=7")).flatMap((p) => p.data);
    const names = byName.map((m) => m.name!);
    expect(names).toHaveLength(seeded / 2);
    expect(names).toEqual([...names].sort().reverse());
  });

  it("the limit may change between pages of one walk", async () => {
    const first = await page("fields=id&limit=10");
    const second = await page(`fields=id&limit=25&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.data.map((m) => m.id)).toEqual(newestFirst.slice(10, 35));
  });
});

describe("stable cursors", () => {
  it("a cursor continues after its last row though rows were added before it or the row removed", async () => {
    const first = await page("fields=name&limit=10&sort=name");
    const names = (await page("fields=name&limit=500&sort=name")).data;
    // A new monitor sorting at the very top, and the cursor's own row deleted.
    await create(acct, { type: "dnsbl", url: "a-first.example.com", name: "a-first" });
    await acct.delete(`/monitor/${first.data[9]!.id}`);
    const second = await page(
      `fields=name&limit=10&sort=name&cursor=${encodeURIComponent(first.nextCursor!)}`,
    );
    expect(second.data.map((m) => m.name)).toEqual(names.slice(10, 20).map((m) => m.name));
  });
});

describe("invalid_cursor", () => {
  const cursorOf = async (query: string) => (await page(query)).nextCursor!;

  it("refuses a tampered cursor", async () => {
    const cursor = await cursorOf("limit=5");
    const [body, mac] = cursor.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), k: [0, "x"] }),
    ).toString("base64url");
    // Change the checksum's last character (to one it is not, or the "tampered" cursor would be the real one).
    const flipped = `${mac!.slice(0, -1)}${mac!.endsWith("A") ? "B" : "A"}`;
    for (const bad of [`${forged}.${mac}`, `${body}.${flipped}`, "not-a-cursor"]) {
      const res = await acct.get(`/monitor?limit=5&cursor=${encodeURIComponent(bad)}`);
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_cursor",
        errors: [{ pointer: "/cursor", parameter: "cursor", reason: "invalid" }],
      });
    }
  });

  it("refuses a cursor from another sort, another query, or another account", async () => {
    const cursor = encodeURIComponent(await cursorOf("limit=5&tag=odd"));
    const other = await sb.account();
    for (const [client, query] of [
      [acct, "limit=5&tag=odd&sort=name"],
      [acct, "limit=5&tag=odd&sort=created:asc"],
      [acct, "limit=5&tag=even"],
      [acct, "limit=5"],
      [acct, "limit=5&tag=odd&fields=id"],
      [other, "limit=5&tag=odd"],
    ] as const) {
      const res = await client.get(`/monitor?${query}&cursor=${cursor}`);
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_cursor",
        errors: [{ pointer: "/cursor", parameter: "cursor", reason: "foreign" }],
      });
    }
  });

  it("accepts a cursor under another spelling of the same order", async () => {
    // Time columns sort newest first unless told otherwise: sort=created is sort=created:desc.
    const first = await page("limit=5&tag=odd");
    const spelled = await page(
      `limit=5&tag=odd&sort=created:desc&cursor=${encodeURIComponent(first.nextCursor!)}`,
    );
    const plain = await page(`limit=5&tag=odd&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(spelled.data.map((m) => m.id)).toEqual(plain.data.map((m) => m.id));
    expect(spelled.data.length).toBeGreaterThan(0);
  });
});
