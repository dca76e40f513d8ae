import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import type { Client } from "../../helpers/sandbox.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { key, settle } from "../jobs/helpers.ts";
import { parseCsv, readPdf, wellFormedXml } from "./parse.ts";

/** Generated reports over HTTP: the request and its validation, the job, the details, each format, expiry. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const day = 86400;
const outcome = (id: string, state: "up" | "down") =>
  sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state });

async function named(c: Client, name: string): Promise<string> {
  const res = await c.post("/monitor", {
    type: "http",
    name,
    url: `https://example.com/${randomUUID()}`,
    locations: { pools: ["allworld"] },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Requests a report, waits for its job and answers the report's details. */
async function report(c: Client, body: Record<string, unknown>) {
  const res = await c.post("/monitor/report", body, key());
  expect(res.status, res.text).toBe(202);
  const job = await settle(c, res.body.jobId);
  expect(job.body.state, job.text).toBe("succeeded");
  const details = await c.get(`/monitor/report/${job.body.results[0].entityId}`);
  expect(details.status, details.text).toBe(200);
  return details.body;
}

/**
 * A monitor up 45 minutes, down 15, then up 60, from an hour boundary; answers the window. Each outcome is
 * recorded right after the clock is set to its exact second: advancing by offsets would carry the real time
 * spent between calls into the durations (900 s read as 901 on a loaded machine).
 */
async function history(id: string) {
  const now = await sb.advance(0);
  const start = now + 3600 - (now % 3600);
  await sb.setClock(start);
  await outcome(id, "up");
  await sb.setClock(start + 45 * 60);
  await outcome(id, "down");
  await sb.setClock(start + 60 * 60);
  await outcome(id, "up");
  const end = await sb.setClock(start + 2 * 3600);
  return { start, end };
}

describe("POST /monitor/report", () => {
  it("answers 202 with a job whose one result names the report and its download path", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const res = await c.post("/monitor/report", { monitorIds: [m, m] }, key());
    expect(res.status, res.text).toBe(202);
    expect(res.headers.location).toBe(`/job/${res.body.jobId}`);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(res.body).toEqual({ jobId: expect.any(String), accepted: 1 });

    const job = await settle(c, res.body.jobId);
    expect(job.body).toMatchObject({
      kind: "monitor.report",
      state: "succeeded",
      progress: { done: 1, total: 1 },
    });
    const [row] = job.body.results;
    expect(row.entityId).toMatch(/^rep_[0-9a-f]{24}$/);
    expect(row).toMatchObject({
      status: "created",
      itemRef: row.entityId,
      result: { reportId: row.entityId, downloadUrl: `/monitor/report/${row.entityId}/content` },
    });

    // Defaults: the last 30 days up to now, pdf, the stats section, the account's zone.
    const now = await sb.advance(0);
    const details = (await c.get(`/monitor/report/${row.entityId}`)).body;
    expect(details).toEqual({
      id: row.entityId,
      monitorIds: [m],
      from: details.to - 30 * day,
      to: details.to,
      format: "pdf",
      sections: ["stats"],
      timezone: "UTC",
      created: details.created,
      expiresAt: details.created + 7 * day,
      size: expect.any(Number),
      contentType: "application/pdf",
      downloadUrl: row.result.downloadUrl,
    });
    expect(details.to).toBeLessThanOrEqual(now);
    const file = await c.get(row.result.downloadUrl);
    expect(Buffer.byteLength(file.text)).toBe(details.size);
  });

  it("requires an Idempotency-Key and replays the first answer for the same key and body", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const without = await c.post("/monitor/report", { monitorIds: [m] });
    expect(without.status).toBe(400);
    expect(without.body.code).toBe("idempotency_key_required");

    const k = key();
    const first = await c.post("/monitor/report", { monitorIds: [m] }, k);
    const again = await c.post("/monitor/report", { monitorIds: [m] }, k);
    expect(again.status).toBe(202);
    expect(again.headers["idempotency-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
    const conflict = await c.post("/monitor/report", { monitorIds: [m], format: "csv" }, k);
    expect(conflict.status).toBe(409);
    expect((await c.get("/job")).body.data).toHaveLength(1);
  });

  it("refuses bad requests with pointers, and queues nothing", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const other = await sb.account();
    const foreign = await monitor(other);
    const webhookless = { webhookId: randomUUID() };
    const cases: Array<[Record<string, unknown>, number, string, Record<string, unknown>]> = [
      [{}, 422, "validation_failed", { pointer: "/monitorIds", reason: "required" }],
      [{ monitorIds: [] }, 422, "validation_failed", { pointer: "/monitorIds" }],
      [
        { monitorIds: Array.from({ length: 501 }, () => m) },
        422,
        "validation_failed",
        { pointer: "/monitorIds", maximum: 500 },
      ],
      [
        { monitorIds: [m, "nope", foreign] },
        422,
        "validation_failed",
        { pointer: "/monitorIds/1", reason: "not_found", value: "nope" },
      ],
      [
        { monitorIds: [m], format: "docx" },
        422,
        "validation_failed",
        { pointer: "/format", reason: "not_allowed", allowed: ["pdf", "csv", "xml", "html"] },
      ],
      [
        { monitorIds: [m], sections: ["stats", "graphs"] },
        422,
        "validation_failed",
        { pointer: "/sections/1" },
      ],
      [{ monitorIds: [m], sections: [] }, 422, "validation_failed", { pointer: "/sections" }],
      [
        { monitorIds: [m], timezone: "Mars/Olympus" },
        422,
        "validation_failed",
        { pointer: "/timezone", reason: "unknown_timezone" },
      ],
      [{ monitorIds: [m], timezone: "+01:00" }, 422, "validation_failed", { pointer: "/timezone" }],
      [{ monitorIds: [m], from: 2000, to: 2000 }, 422, "invalid_range", { pointer: "/to" }],
      [{ monitorIds: [m], from: 3000, to: 2000 }, 422, "invalid_range", { pointer: "/from" }],
      [{ monitorIds: [m], from: 0, to: 400 * day }, 422, "invalid_range", { maxSpan: 366 * day }],
      [
        { monitorIds: [m], callback: webhookless },
        422,
        "validation_failed",
        { pointer: "/callback/webhookId" },
      ],
      [{ monitorIds: [m], colour: "red" }, 422, "validation_failed", { pointer: "/colour" }],
    ];
    for (const [body, status, code, entry] of cases) {
      const res = await c.post("/monitor/report", body, key());
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.errors).toContainEqual(expect.objectContaining(entry));
    }
    // The third monitor is another account's: it is as unknown as "nope".
    const both = await c.post("/monitor/report", { monitorIds: [m, "nope", foreign] }, key());
    expect(both.body.errors.map((e: any) => e.pointer)).toEqual(["/monitorIds/1", "/monitorIds/2"]);
    expect((await c.get("/job")).body.data).toHaveLength(0);
  });

  it("takes any IANA zone Intl knows and writes times in it", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    await outcome(m, "up");
    const details = await report(c, {
      monitorIds: [m],
      format: "csv",
      sections: ["state"],
      timezone: "Asia/Kolkata",
    });
    expect(details.timezone).toBe("Asia/Kolkata");
    const [header, row] = parseCsv((await c.get(details.downloadUrl)).text);
    expect(row![header!.indexOf("since")]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
  });
});

describe("report files", () => {
  it("csv: a header row and one row per monitor per section, with the summary route's uptime", async () => {
    const c = await sb.account();
    const a = await named(c, "Shop, main");
    const b = await named(c, 'The "API"');
    const { start, end } = await history(a);
    const details = await report(c, {
      monitorIds: [a, b],
      from: start,
      to: end,
      format: "csv",
      sections: ["stats", "state", "outages", "incidents", "log"],
    });
    // Sections come in the catalogue's order, whatever the order sent.
    expect(details.sections).toEqual(["state", "stats", "outages", "incidents", "log"]);
    const file = await c.get(details.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(file.headers["content-disposition"]).toBe(`attachment; filename="${details.id}.csv"`);

    const [header, ...rows] = parseCsv(file.text);
    expect(header!.slice(0, 3)).toEqual(["section", "monitorId", "monitorName"]);
    expect(rows.every((r) => r.length === header!.length)).toBe(true);
    const col = (r: string[], name: string) => r[header!.indexOf(name)];
    const of = (section: string) => rows.filter((r) => r[0] === section);
    expect(of("state").map((r) => [col(r, "monitorName"), col(r, "state")])).toEqual([
      ["Shop, main", "up"],
      ['The "API"', "up"],
    ]);
    expect(of("outages").map((r) => [col(r, "monitorId"), col(r, "durationSec")])).toEqual([[a, "900"]]);
    expect(of("incidents").map((r) => [col(r, "monitorId"), col(r, "state")])).toEqual([[a, "resolved"]]);
    expect(of("log").map((r) => col(r, "state"))).toEqual(["up", "down", "up"]);

    const summary = await c.get(`/monitor/result/summary?monitor=${a},${b}&from=${start}&to=${end}`);
    expect(summary.status, summary.text).toBe(200);
    const stats = of("stats");
    expect(stats.map((r) => col(r, "monitorId"))).toEqual([a, b]);
    for (const row of stats) {
      const s = summary.body.data.find((x: any) => x.monitorId === col(row, "monitorId"));
      expect(col(row, "upSec")).toBe(String(s.upSec));
      expect(col(row, "downSec")).toBe(String(s.downSec));
      expect(col(row, "totalSec")).toBe(String(s.totalSec));
      expect(col(row, "checksTotal")).toBe(String(s.checks.total));
      if (s.uptimePercent === null) expect(col(row, "uptimePercent")).toBe("");
      else expect(Number(col(row, "uptimePercent"))).toBeCloseTo(s.uptimePercent, 4);
    }
    expect(Number(col(stats[0]!, "uptimePercent"))).toBeCloseTo(6300 / 72, 4);
  });

  it("csv: a name a spreadsheet would run as a formula is written inert", async () => {
    const c = await sb.account();
    const m = await named(c, '=HYPERLINK("https://evil.example","x")');
    const details = await report(c, { monitorIds: [m], format: "csv", sections: ["state"] });
    const [header, row] = parseCsv((await c.get(details.downloadUrl)).text);
    expect(row![header!.indexOf("monitorName")]).toBe('\'=HYPERLINK("https://evil.example","x")');
  });

  it("xml: well-formed, escaped, naming each monitor", async () => {
    const c = await sb.account();
    const a = await named(c, "R&D <edge> 'probe'");
    await history(a);
    const details = await report(c, { monitorIds: [a], format: "xml", sections: ["stats", "incidents"] });
    const file = await c.get(details.downloadUrl);
    expect(file.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(file.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const texts = wellFormedXml(file.text);
    expect(file.text).toContain(`<monitor id="${a}">R&amp;D &lt;edge&gt; &#39;probe&#39;</monitor>`);
    expect(texts.get("monitorId")).toEqual([a, a]);
    expect(texts.get("uptimePercent")).toHaveLength(1);
    expect(file.text).toContain(`<report id="${details.id}"`);
  });

  it("html: a document with one table per section", async () => {
    const c = await sb.account();
    const a = await named(c, "<b>bold</b>");
    const details = await report(c, { monitorIds: [a], format: "html", sections: ["state", "stats"] });
    const file = await c.get(details.downloadUrl);
    expect(file.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(file.text.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(file.text.match(/<table/g)).toHaveLength(2);
    expect(file.text).toContain('<table data-section="stats">');
    expect(file.text).toContain("<th>uptimePercent</th>");
    expect(file.text).toContain("<td>&lt;b&gt;bold&lt;/b&gt;</td>");
    expect(file.text).not.toContain("<b>bold");
  });

  it("pdf: a PDF 1.4 document whose text names the monitor, across pages when long", async () => {
    const c = await sb.account();
    const a = await named(c, "Café (main) \\ shop");
    const { start, end } = await history(a);
    const details = await report(c, { monitorIds: [a], from: start, to: end, sections: ["stats", "log"] });
    const file = await c.get(details.downloadUrl);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.headers["content-disposition"]).toBe(`attachment; filename="${details.id}.pdf"`);
    expect(file.text.startsWith("%PDF-1.4")).toBe(true);
    expect(file.text.trimEnd().endsWith("%%EOF")).toBe(true);
    const pdf = readPdf(Buffer.from(file.text, "latin1"));
    expect(pdf.pages).toBe(1);
    expect(pdf.text).toContain(`Café (main) \\ shop (${a})`);
    expect(pdf.text).toContain("Uptime statistics");
    expect(pdf.text).toMatch(/uptimePercent: 87\.5;/);

    // Many monitors fill several pages.
    const many = await Promise.all(Array.from({ length: 40 }, () => monitor(c)));
    const long = await report(c, { monitorIds: many, sections: ["state", "stats"] });
    const longPdf = readPdf(Buffer.from((await c.get(long.downloadUrl)).text, "latin1"));
    expect(longPdf.pages).toBeGreaterThan(1);
    for (const id of many) expect(longPdf.text).toContain(id);
  });
});

describe("retention and isolation", () => {
  it("keeps a report 7 days, then answers 404 for its details and its file", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const details = await report(c, { monitorIds: [m], format: "csv" });
    await sb.advance(details.expiresAt - (await sb.advance(0)) - 1);
    expect((await c.get(`/monitor/report/${details.id}`)).status).toBe(200);
    expect((await c.get(details.downloadUrl)).status).toBe(200);
    await sb.advance(1);
    for (const path of [`/monitor/report/${details.id}`, details.downloadUrl]) {
      const res = await c.get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
  });

  it("shows a report only to its account", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const m = await monitor(c);
    const details = await report(c, { monitorIds: [m], format: "html" });
    expect((await other.get(`/monitor/report/${details.id}`)).status).toBe(404);
    expect((await other.get(details.downloadUrl)).status).toBe(404);
    expect((await c.get("/monitor/report/rep_000000000000000000000000")).status).toBe(404);
  });
});
