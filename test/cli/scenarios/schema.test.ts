import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repositoryRoot } from "../../../tools/generate.ts";

/**
 * The committed JSON Schema of test files (schemas/vigil-test.schema.json, kept fresh by
 * test/generate.test.ts): strict ajv compiles it, the example repository's test files link and pass it,
 * and it flags the mistakes an editor should underline as they are typed.
 */
const schema = JSON.parse(readFileSync(join(repositoryRoot, "schemas/vigil-test.schema.json"), "utf8"));
const validate = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true }).compile(schema);
const errors = (doc: unknown) =>
  validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);

const testsDir = join(repositoryRoot, "examples/gitops/tests");
const testFiles = readdirSync(testsDir)
  .filter((f) => f.endsWith(".test.yaml"))
  .map((f) => join(testsDir, f));

describe("the vigil test JSON Schema", () => {
  it("finds the example repository's test files", () => {
    expect(testFiles.length).toBeGreaterThanOrEqual(3);
  });

  for (const file of testFiles)
    it(`${relative(repositoryRoot, file)} links it and passes it`, () => {
      const text = readFileSync(file, "utf8");
      const link = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
      expect(link, "the first line links the schema for editors").not.toBeNull();
      expect(join(file, "..", link![1]!)).toBe(join(repositoryRoot, "schemas/vigil-test.schema.json"));
      expect(errors(parse(text))).toEqual([]);
    });

  it("passes the issue's example and flags unknown members, bad values and missing members", () => {
    const example = {
      start: "2026-03-02T09:00:00Z",
      confirmed: ["sre-email"],
      rules: { everyMonitorAlerts: true, maxDelay: "15m" },
      scenarios: [
        {
          name: "checkout outage pages on-call after their delay",
          steps: [
            { at: "0m", down: ["checkout-api"] },
            { at: "12m", up: ["checkout-api"] },
          ],
          expect: [
            { at: "5m", contact: "oncall-phone", alert: "down" },
            { at: "12m", contact: "oncall-phone", alert: "up", within: "2m" },
            { at: "0m", webhook: "incident-bot", event: "monitor.down" },
          ],
          never: [{ contact: "reports" }, { contact: "oncall-phone", alert: "repeatedlyDown" }],
        },
      ],
    };
    expect(errors(example)).toEqual([]);
    expect(errors({ ...example, strat: "x" })).toContain(" additionalProperties");
    const scenario = example.scenarios[0]!;
    const bad = { scenarios: [{ ...scenario, expect: [{ at: "5m", contact: "x", alert: "dwon" }] }] };
    expect(errors(bad).length).toBeGreaterThan(0);
    expect(errors({ scenarios: [{ ...scenario, steps: [{ at: "5 minutes", down: ["x"] }] }] })).toContain(
      "/scenarios/0/steps/0/at pattern",
    );
    expect(errors({ scenarios: [] })).toContain("/scenarios minItems");
  });
});
