import { describe, expect, it } from "vitest";
import {
  checkSettingsRules,
  formatAssertions,
  normalizeSettings,
  parseAssertions,
  selectorProblem,
} from "../../src/kinds/index.ts";

describe("assertion rule language", () => {
  it("parses rules and formats them back", () => {
    const source =
      'status eq 200\nheader[Content-Type] contains json\n# comment\n\njson[$.state] eq "all good"\nheader[ETag] exists';
    const { rows, errors } = parseAssertions(source);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { source: "status", comparison: "eq", target: "200" },
      { source: "header", property: "Content-Type", comparison: "contains", target: "json" },
      { source: "json", property: "$.state", comparison: "eq", target: "all good" },
      { source: "header", property: "ETag", comparison: "exists" },
    ]);
    expect(parseAssertions(formatAssertions(rows)).rows).toEqual(rows);
  });

  it("names the line of each mistake", () => {
    const { errors } = parseAssertions("status eq 200\nstatus equals 200\nheader eq x\nbody contains");
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(errors[0]?.message).toContain("unknown comparison");
  });
});

describe("value selectors", () => {
  it("compiles per content type", () => {
    expect(selectorProblem("application/json", "$.data.items[0].status")).toBeUndefined();
    expect(selectorProblem("application/json", "data.items[0]")).toBeUndefined();
    expect(selectorProblem("application/json", "$.data[")).toContain("unbalanced");
    expect(selectorProblem("text/xml", "//item[@id='1']/value")).toBeUndefined();
    expect(selectorProblem("text/xml", "item")).toContain("XPath");
    expect(selectorProblem("text/plain", "value=(\\d+)")).toBeUndefined();
    expect(selectorProblem("text/plain", "value=\\d+")).toContain("capture group");
    expect(selectorProblem("text/plain", "(")).toContain("regular expression");
  });
});

describe("settings rules", () => {
  it("refuses keyword members while assertMode is on", () => {
    const issues = checkSettingsRules("http", { assertMode: true, keywords: "ok", errorStatuses: [500] }, {});
    expect(issues.map((i) => i.path.join("/"))).toEqual(["keywords", "errorStatuses"]);
  });

  it("counts expectation arguments", () => {
    const rule = (expectation: unknown) =>
      checkSettingsRules("api", { contentType: "application/json", expectation }, {}).map((i) => i.reason);
    expect(rule({ func: "eq", args: ["1", "2"] })).toEqual(["wrong_count"]);
    expect(rule({ func: "inr", args: ["5", "1"] })).toEqual(["not_ascending"]);
    expect(rule({ func: "gt", args: ["abc"] })).toEqual(["not_numeric"]);
    expect(rule({ func: "in", args: [] })).toEqual(["wrong_count"]);
    expect(rule({ func: "no" })).toEqual([]);
  });

  it("normalises what the service would store", () => {
    expect(
      normalizeSettings("http", {
        maxSize: 20_000_000,
        headers: [
          { name: "Date", value: "x" },
          { name: "X-Keep", value: "y" },
        ],
      }),
    ).toEqual({ maxSize: 10485760, headers: [{ name: "X-Keep", value: "y" }] });
    expect(
      normalizeSettings("tran", { steps: [{ action: "navigate", url: "https://a.b/", synthesized: true }] }),
    ).toEqual({
      steps: [],
    });
  });
});
