/**
 * One vocabulary of monitor types: every frontend (the engine, the YAML loader and its JSON Schema,
 * Terraform and the CDKTF bindings made from its schema, Pulumi) accepts exactly the names the type
 * catalogue and its aliases give, and refuses the rest, discontinued names included.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateDesired } from "../../src/engine/validate.ts";
import { loadConfig } from "../../src/gitops/load.ts";
import { discontinuedMonitorTypes, monitorTypeAliases, monitorTypes } from "../../src/kinds/index.ts";
import { createHandlers } from "../../src/pulumi/provider/handlers.ts";
import { pulumiSchema } from "../../src/pulumi/schema.ts";
import { fromMembers } from "../../src/terraform/cty.ts";
import { resourceType } from "../../src/terraform/resources.ts";
import { repositoryRoot } from "../../tools/generate.ts";

/** Derived from the catalogue, not from the enum under test: every type's name, then its aliases. */
const vocabulary = [...Object.keys(monitorTypes), ...Object.keys(monitorTypeAliases)];
const outsiders = [...discontinuedMonitorTypes, "ftp", "HTTP", "__proto__"];
const candidates = [...vocabulary, ...outsiders];

/** Members valid enough that only `type` is in question. */
const monitor = (type: string) => ({
  type,
  url: "https://shop.example.com/",
  locations: { pools: ["allworld"] },
});

/** For each frontend: the candidates it accepts as a monitor's `type`. */
const accepted: Record<string, (candidates: string[]) => Promise<string[]> | string[]> = {
  engine: (names) =>
    names.filter(
      (type) =>
        !validateDesired([{ address: "monitors.m", kind: "monitor", members: monitor(type) }]).some(
          (d) => d.pointer === "/type",
        ),
    ),
  "YAML loader": async (names) => {
    const dir = await mkdtemp(join(tmpdir(), "vigil-vocabulary-"));
    try {
      const entries = names.map((type, i) => `  m${i}: ${JSON.stringify(monitor(type))}`);
      await writeFile(join(dir, "monitors.yaml"), `monitors:\n${entries.join("\n")}\n`);
      const { diagnostics } = await loadConfig([dir], { env: {} });
      const refused = new Set(diagnostics.filter((d) => d.path === "type").map((d) => d.address));
      return names.filter((_, i) => !refused.has(`monitors.m${i}`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  "JSON Schema": async (names) => {
    const schema = JSON.parse(await readFile(join(repositoryRoot, "schemas/vigil.schema.json"), "utf8"));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    const validate = ajv.compile(schema);
    return names.filter((type) => {
      validate({ monitors: { m: monitor(type) } });
      return !(validate.errors ?? []).some((e) => e.instancePath === "/monitors/m/type");
    });
  },
  Terraform: (names) => {
    const resource = resourceType("vigil_monitor");
    return names.filter(
      (type) =>
        !resource
          .validate(fromMembers(monitor(type), resource.type))
          .some((d) => JSON.stringify(d.attribute?.steps[0]) === '{"attribute_name":"type"}'),
    );
  },
  Pulumi: async (names) => {
    const provider = createHandlers({});
    const checked = await Promise.all(
      names.map((type) =>
        provider.Check({ urn: "urn:pulumi:dev::p::vigil:index:Monitor::m", news: monitor(type) }),
      ),
    );
    return names.filter((_, i) => !checked[i]!.failures.some((f) => f.property === "type"));
  },
};

describe("the monitor type vocabulary", () => {
  for (const [frontend, accepts] of Object.entries(accepted)) {
    it(`${frontend} accepts exactly the catalogue's types and their aliases`, async () => {
      expect(await accepts(candidates)).toEqual(vocabulary);
    });
  }

  it("is the enum of Pulumi's schema (the SDK's union type)", () => {
    const type = pulumiSchema().types["vigil:index:MonitorType"] as { enum?: { value: string }[] };
    expect(type.enum?.map((e) => e.value)).toEqual(vocabulary);
  });

  it("is what the CDKTF bindings document (Terraform validates what they synthesize, as above)", async () => {
    const bindings = await readFile(join(repositoryRoot, "src/cdktf/generated/monitor/index.ts"), "utf8");
    const doc = /Monitor type;[^\n]*One of: ([^\n]*?)\. Changing/.exec(bindings)?.[1];
    expect(doc?.split(", ").map((v) => JSON.parse(v))).toEqual(vocabulary);
  });

  describe("a discontinued type", () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "vigil-vocabulary-"));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it("is refused once, saying why, with the allowed names listed once", async () => {
      await writeFile(
        join(dir, "m.yaml"),
        `monitors:\n  m: { type: keyword, url: https://shop.example.com/, locations: { pools: [allworld] } }\n`,
      );
      const refusals = (await loadConfig([dir], { env: {} })).diagnostics.filter((d) => d.path === "type");
      expect(refusals).toHaveLength(1);
      const message = refusals[0]!.message;
      expect(message).toContain("keyword monitors can no longer be created");
      expect(message).toContain("monitor_type_discontinued");
      for (const name of vocabulary) expect(message.split(JSON.stringify(name)).length - 1).toBe(1);

      const resource = resourceType("vigil_monitor");
      const [terraform] = resource.validate(fromMembers(monitor("rum"), resource.type));
      expect(terraform?.detail).toContain("rum monitors can no longer be created");
      expect(terraform?.detail?.split('"pageSpeed"').length).toBe(2);
    });
  });
});
