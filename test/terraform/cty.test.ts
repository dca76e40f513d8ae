import { describe, expect, it } from "vitest";
import {
  blockType,
  type CtyType,
  type CtyValue,
  Dynamic,
  decodeJson,
  decodeMsgpack,
  encodeMsgpack,
  fromMembers,
  getPath,
  isKnown,
  list,
  map,
  object,
  parseType,
  set,
  setPath,
  toMembers,
  tuple,
  typeEquals,
  typeToJson,
  Unknown,
  unknown,
} from "../../src/terraform/cty.ts";
import { camelCase, snakeCase } from "../../src/terraform/names.ts";
import type { BlockJson } from "../../src/terraform/schema-json.ts";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ""), "hex"));
const roundTrip = (value: CtyValue, type: CtyType) => decodeMsgpack(encodeMsgpack(value, type), type);

describe("names", () => {
  it("snake_cases members and camelCases attributes back", () => {
    expect(snakeCase("cronSchedule")).toBe("cron_schedule");
    expect(snakeCase("alertTypes")).toBe("alert_types");
    expect(snakeCase("monitorIds")).toBe("monitor_ids");
    expect(snakeCase("httpURL")).toBe("http_url");
    expect(snakeCase("p95")).toBe("p95");
    expect(snakeCase("ipv4Only")).toBe("ipv4_only");
    for (const member of ["cronSchedule", "alertTypes", "id", "p95", "ipv4Only", "excludedAgents"]) {
      expect(camelCase(snakeCase(member))).toBe(member);
    }
  });
});

describe("types", () => {
  it("parses every type expression shape and writes it back", () => {
    const expressions = [
      "string",
      "number",
      "bool",
      "dynamic",
      ["list", "string"],
      ["set", ["map", "number"]],
      ["map", "bool"],
      ["object", { a: "string", b: ["list", "number"] }],
      ["tuple", ["string", "number"]],
    ];
    for (const json of expressions) expect(typeToJson(parseType(json))).toEqual(json);
    // The optional-attributes element of an object type does not change the wire type.
    expect(parseType(["object", { a: "string" }, ["a"]])).toEqual(object({ a: "string" }));
    expect(() => parseType(["list"])).toThrow(/not a cty type expression/);
    expect(() => parseType("int")).toThrow(/not a cty type expression/);
  });

  it("derives a block's implied type from attributes, nested attributes and nested blocks", () => {
    const block: BlockJson = {
      attributes: {
        id: { type: "string" },
        single: { nested_type: { nesting_mode: "single", attributes: { a: { type: "string" } } } },
        many: { nested_type: { nesting_mode: "list", attributes: { b: { type: "number" } } } },
        uniq: { nested_type: { nesting_mode: "set", attributes: { c: { type: "bool" } } } },
        named: { nested_type: { nesting_mode: "map", attributes: { d: { type: ["list", "string"] } } } },
      },
      block_types: {
        timeouts: { nesting_mode: "single", block: { attributes: { create: { type: "string" } } } },
        group: { nesting_mode: "group", block: { attributes: { g: { type: "string" } } } },
        rules: { nesting_mode: "list", block: { attributes: { r: { type: "string" } } } },
        rule_set: { nesting_mode: "set", block: { block_types: {} } },
        by_name: { nesting_mode: "map", block: { attributes: { n: { type: "number" } } } },
        anything: { nesting_mode: "list", block: { attributes: { v: { type: "dynamic" } } } },
      },
    };
    const expected = object({
      id: "string",
      single: object({ a: "string" }),
      many: list(object({ b: "number" })),
      uniq: set(object({ c: "bool" })),
      named: map(object({ d: list("string") })),
      timeouts: object({ create: "string" }),
      group: object({ g: "string" }),
      rules: list(object({ r: "string" })),
      rule_set: set(object({})),
      by_name: map(object({ n: "number" })),
      // Terraform decodes a list of blocks holding a dynamic as a tuple, whose type is known only per value.
      anything: "dynamic",
    });
    expect(typeEquals(blockType(block), expected)).toBe(true);
    expect(() => blockType({ attributes: { x: {} } })).toThrow(/type or nested_type/);
  });
});

describe("msgpack golden bytes (what go-cty's Marshal writes)", () => {
  it("encodes primitives with go-cty's choice of forms", () => {
    // cty strings are msgpack str: fixstr 0xa0|len.
    expect(hex(encodeMsgpack("hi", "string"))).toBe("a26869");
    // Whole numbers that fit int64 use compact ints (UseCompactInts): positive fixint, negative fixint, uint16.
    expect(hex(encodeMsgpack(1, "number"))).toBe("01");
    expect(hex(encodeMsgpack(-1, "number"))).toBe("ff");
    expect(hex(encodeMsgpack(300, "number"))).toBe("cd012c");
    // Beyond 32 bits a non-negative int goes to encodeUint64Cond's last case: uint64 (0xcf).
    expect(hex(encodeMsgpack(2 ** 40, "number"))).toBe("cf0000010000000000");
    // A non-integer exact in float64 is a float64 (UseCompactFloats is off, so never float32).
    expect(hex(encodeMsgpack(1.5, "number"))).toBe("cb3ff8000000000000");
    // Outside int64 the number is text: bf.Text('f', -1) of 2^64 in a fixstr of 20 bytes.
    expect(hex(encodeMsgpack(2n ** 64n, "number"))).toBe(
      `b4${hex(new TextEncoder().encode("18446744073709551616"))}`,
    );
    expect(hex(encodeMsgpack(true, "bool"))).toBe("c3");
    expect(hex(encodeMsgpack(null, "string"))).toBe("c0");
  });

  it("encodes objects and maps as maps with sorted keys", () => {
    // marshal sorts object attribute names; a null attribute is nil.
    expect(hex(encodeMsgpack({ b: true, a: null }, object({ b: "bool", a: "string" })))).toBe(
      "82a161c0a162c3",
    );
    // A map's ElementIterator walks keys in order too.
    expect(hex(encodeMsgpack({ b: 1, a: 2 }, map("number")))).toBe("82a16102a16201");
    // Lists, sets and tuples are arrays.
    expect(hex(encodeMsgpack(["x", "y"], set("string")))).toBe("92a178a179");
  });

  it("encodes unknowns as extension 0, and kept refinements as extension 12", () => {
    // unknownValBytes: fixext1 (0xd4), code 0, one zero byte.
    expect(hex(encodeMsgpack(unknown, object({ a: "string" })))).toBe("d40000");
    // Refinements that do not apply to the type are not written, leaving the plain form.
    expect(hex(encodeMsgpack(new Unknown({ stringPrefix: "ab" }), "number"))).toBe("d40000");
    // Not null (key 1 → false) and prefix "ab" (key 2): map of 2, 7 bytes, so ext8 (0xc7) length 7 code 12.
    expect(hex(encodeMsgpack(new Unknown({ notNull: true, stringPrefix: "ab" }), "string"))).toBe(
      "c7070c" + "82" + "01c2" + "02a26162",
    );
    // Lower bound 0 inclusive (key 3 → [0, true]): 5 bytes.
    expect(hex(encodeMsgpack(new Unknown({ numberMin: { value: 0, inclusive: true } }), "number"))).toBe(
      "c7050c" + "81" + "03" + "9200c3",
    );
    // Length at least 1 (key 5): 3 bytes, again ext8 since only 1, 2, 4, 8 and 16 have fixext forms.
    expect(hex(encodeMsgpack(new Unknown({ lengthMin: 1 }), list("string")))).toBe("c7030c" + "81" + "0501");
  });

  it("encodes a dynamic value as [type JSON as bin, value]", () => {
    // dynamicVal.MarshalMsgpack: array of 2, EncodeBytes(`"string"`) (bin8, 8 bytes), then the value.
    const typeJson = hex(new TextEncoder().encode('"string"'));
    expect(hex(encodeMsgpack(new Dynamic("string", "x"), "dynamic"))).toBe(`92c408${typeJson}a178`);
    // A plain value takes its implied type.
    expect(hex(encodeMsgpack("x", "dynamic"))).toBe(`92c408${typeJson}a178`);
    // A dynamic unknown never has refinements; a dynamic null is nil.
    expect(hex(encodeMsgpack(new Unknown({ notNull: true }), "dynamic"))).toBe("d40000");
    expect(hex(encodeMsgpack(null, "dynamic"))).toBe("c0");
  });
});

describe("msgpack decode", () => {
  it("round-trips every type shape", () => {
    const cases: [CtyValue, CtyType][] = [
      ["héllo", "string"],
      ["", "string"],
      [0, "number"],
      [-123456, "number"],
      [2 ** 40, "number"],
      [-(2 ** 40), "number"],
      [0.1, "number"],
      [Number.POSITIVE_INFINITY, "number"],
      [9007199254740993n, "number"],
      [-(2n ** 63n), "number"],
      [2n ** 70n, "number"],
      [false, "bool"],
      [["a", "b"], list("string")],
      [[], list("string")],
      [[1, 2], set("number")],
      [{ "x-key": "v", k: "w" }, map("string")],
      [["a", 1, true], tuple(["string", "number", "bool"])],
      [
        { a: "s", b: [1], c: { d: null } },
        object({ a: "string", b: list("number"), c: object({ d: "bool" }) }),
      ],
      [new Dynamic(list("string"), ["a"]), "dynamic"],
      [new Dynamic(object({ n: "number" }), { n: 1 }), "dynamic"],
      [null, object({ a: "string" })],
      [null, "dynamic"],
    ];
    for (const [value, type] of cases) expect(roundTrip(value, type)).toEqual(value);
  });

  it("decodes nulls and unknowns nested anywhere", () => {
    const type = object({ id: "string", tags: set("string"), settings: object({ timeout: "number" }) });
    const value = { id: unknown, tags: [unknown, "a"], settings: { timeout: null } };
    const decoded = roundTrip(value, type);
    expect(decoded).toEqual(value);
    expect(isKnown(decoded)).toBe(false);
    expect(isKnown({ id: "m1", tags: ["a"], settings: { timeout: 30 } })).toBe(true);
  });

  it("decodes refined unknowns (extension 12) and ignores refinement keys it does not know", () => {
    expect(decodeMsgpack(bytes("c7070c 82 01c2 02a26162"), "string")).toEqual(
      new Unknown({ notNull: true, stringPrefix: "ab" }),
    );
    expect(decodeMsgpack(bytes("c7110c 82 03 9200c3 04 92cb4059000000000000c2"), "number")).toEqual(
      new Unknown({ numberMin: { value: 0, inclusive: true }, numberMax: { value: 100, inclusive: false } }),
    );
    expect(decodeMsgpack(bytes("c7070c 83 0502 060a 0901"), set("string"))).toEqual(
      new Unknown({ lengthMin: 2, lengthMax: 10 }),
    );
    // Known to be null is just null.
    expect(decodeMsgpack(bytes("c7030c 81 01c3"), "string")).toBeNull();
    // Any other extension code is a wholly unknown value, whatever its payload.
    expect(decodeMsgpack(bytes("d50700ff"), "string")).toEqual(unknown);
    // Refinements of a dynamic value are ignored, as go-cty does.
    expect(decodeMsgpack(bytes("c7030c 81 01c2"), "dynamic")).toEqual(unknown);
    // A refined unknown round-trips with its refinements.
    const refined = new Unknown({ notNull: true, lengthMin: 1, lengthMax: 3 });
    expect(roundTrip(refined, list("string"))).toEqual(refined);
  });

  it("decodes numbers sent as text and as any msgpack int width", () => {
    expect(decodeMsgpack(encodeMsgpack("0.1", "string"), "number")).toBe(0.1);
    expect(decodeMsgpack(encodeMsgpack("12345678901234567890", "string"), "number")).toBe(
      12345678901234567890n,
    );
    expect(decodeMsgpack(bytes("d3ffffffffffffffff"), "number")).toBe(-1);
    expect(decodeMsgpack(bytes("cf0000000000000007"), "number")).toBe(7);
    expect(() => decodeMsgpack(encodeMsgpack("ten", "string"), "number")).toThrow(/not a number/);
  });

  it("refuses values that do not match the type, naming where", () => {
    const type = object({ settings: object({ timeout: "number" }) });
    expect(() =>
      decodeMsgpack(
        encodeMsgpack({ settings: { timeout: "x" } }, object({ settings: object({ timeout: "string" }) })),
        type,
      ),
    ).toThrow('settings.timeout: not a number: "x"');
    expect(() => decodeMsgpack(encodeMsgpack({ other: "x" }, object({ other: "string" })), type)).toThrow(
      'unsupported attribute "other"',
    );
    expect(() => encodeMsgpack({ settings: { timeout: "30" } }, type)).toThrow(
      "settings.timeout: number is required",
    );
    expect(() => encodeMsgpack({ nope: 1 }, type)).toThrow('unsupported attribute "nope"');
    expect(() => encodeMsgpack(["a"], tuple(["string", "string"]))).toThrow(/tuple of 2/);
  });
});

describe("JSON decode", () => {
  it("decodes per the type, keeping big numbers exact and dropping attributes the type no longer has", () => {
    const type = object({
      id: "string",
      interval: "number",
      big: "number",
      tags: set("string"),
      settings: object({ timeout: "number", follow: "bool" }),
      extra: "string",
      any: "dynamic",
    });
    const raw = `{
      "id": "m1", "interval": 60, "big": 12345678901234567890, "tags": ["a", "b"],
      "settings": {"timeout": "30", "follow": "true"}, "old_attribute": "gone",
      "any": {"type": ["list", "number"], "value": [1, 2]}
    }`;
    expect(decodeJson(new TextEncoder().encode(raw), type)).toEqual({
      id: "m1",
      interval: 60,
      big: 12345678901234567890n,
      tags: ["a", "b"],
      settings: { timeout: 30, follow: true },
      extra: null,
      any: new Dynamic(list("number"), [1, 2]),
    });
  });

  it("converts numbers and bools to strings as cty/json does, and refuses what does not fit", () => {
    expect(decodeJson("[1.50, true]", tuple(["string", "string"]))).toEqual(["1.50", "true"]);
    expect(() => decodeJson('{"a": [1]}', object({ a: "string" }))).toThrow("a: string is required");
    expect(() => decodeJson("{", "string")).toThrow(/invalid JSON/);
  });
});

describe("paths", () => {
  const value = { settings: { headers: { Accept: "json" } }, locations: [{ pools: ["eu"] }], id: unknown };

  it("reads through attributes, map keys and list indexes", () => {
    expect(
      getPath(value, [
        { attribute_name: "settings" },
        { attribute_name: "headers" },
        { element_key_string: "Accept" },
      ]),
    ).toBe("json");
    expect(
      getPath(value, [
        { attribute_name: "locations" },
        { element_key_int: "0" },
        { attribute_name: "pools" },
      ]),
    ).toEqual(["eu"]);
    expect(getPath(value, [{ attribute_name: "id" }, { attribute_name: "deeper" }])).toEqual(unknown);
    expect(getPath(value, [{ attribute_name: "missing" }])).toBeUndefined();
    expect(getPath(value, [{ attribute_name: "constructor" }])).toBeUndefined();
  });

  it("writes a copy with one value replaced", () => {
    const next = setPath(
      value,
      [{ attribute_name: "locations" }, { element_key_int: 0 }, { attribute_name: "pools" }],
      ["us"],
    );
    expect(next).toEqual({ ...value, locations: [{ pools: ["us"] }] });
    expect(value.locations[0]?.pools).toEqual(["eu"]);
    expect(() => setPath(value, [{ attribute_name: "nope" }, { attribute_name: "x" }], 1)).toThrow(
      /no value at nope/,
    );
  });
});

describe("members", () => {
  // A monitor the way the provider schema describes it: settings and locations nested, tags a set.
  const monitorType = blockType({
    attributes: {
      id: { type: "string" },
      type: { type: "string" },
      url: { type: "string" },
      name: { type: "string" },
      interval: { type: "number" },
      cron_schedule: { type: "string" },
      enabled: { type: "bool" },
      tags: { type: ["set", "string"] },
      locations: {
        nested_type: {
          nesting_mode: "single",
          attributes: {
            pools: { type: ["set", "string"] },
            fallback: { type: "string" },
            excluded_agents: { type: ["set", "string"] },
          },
        },
      },
      settings: {
        nested_type: {
          nesting_mode: "single",
          attributes: {
            timeout: { type: "number" },
            follow_redirects: { type: "bool" },
            headers: { type: ["map", "string"] },
          },
        },
      },
      alert_subscriptions: {
        nested_type: {
          nesting_mode: "list",
          attributes: { contact_ids: { type: ["set", "string"] }, alert_types: { type: ["set", "string"] } },
        },
      },
    },
  });

  const value = {
    id: "m-1",
    type: "http",
    url: "https://example.com",
    name: null,
    interval: 60,
    cron_schedule: null,
    enabled: true,
    tags: ["prod", "web"],
    locations: { pools: ["eu", "us"], fallback: null, excluded_agents: null },
    settings: { timeout: 30, follow_redirects: false, headers: { "X-Api_Key": "k" } },
    alert_subscriptions: [{ contact_ids: ["c1"], alert_types: ["down", "repeatedlyDown"] }],
  };

  const members = {
    id: "m-1",
    type: "http",
    url: "https://example.com",
    interval: 60,
    enabled: true,
    tags: ["prod", "web"],
    locations: { pools: ["eu", "us"] },
    settings: { timeout: 30, followRedirects: false, headers: { "X-Api_Key": "k" } },
    alertSubscriptions: [{ contactIds: ["c1"], alertTypes: ["down", "repeatedlyDown"] }],
  };

  it("turns a cty object into members: camelCase names, nulls left out, map keys untouched", () => {
    expect(toMembers(value, monitorType)).toEqual({ members, unknown: [] });
  });

  it("fills every attribute from members, snake_casing nested names; other members are not in the schema", () => {
    expect(fromMembers({ ...members, state: "up", effectiveUrl: "x" }, monitorType)).toEqual(value);
    expect(fromMembers({}, monitorType)).toEqual(
      Object.fromEntries(Object.keys(monitorType.attributes).map((name) => [name, null])),
    );
  });

  it("survives the wire: members → cty → msgpack → cty → members", () => {
    const wire = encodeMsgpack(fromMembers(members, monitorType), monitorType);
    expect(toMembers(decodeMsgpack(wire, monitorType), monitorType).members).toEqual(members);
  });

  it("reports config values unknown at plan time and leaves them out", () => {
    const planned = {
      ...value,
      url: unknown,
      tags: ["prod", unknown],
      settings: { ...value.settings, timeout: new Unknown({ notNull: true }) },
      alert_subscriptions: [{ contact_ids: unknown, alert_types: ["down"] }],
    };
    const { members: known, unknown: where } = toMembers(planned, monitorType);
    expect(where).toEqual([
      [{ attribute_name: "url" }],
      [{ attribute_name: "tags" }],
      [{ attribute_name: "settings" }, { attribute_name: "timeout" }],
      [{ attribute_name: "alert_subscriptions" }, { element_key_int: 0 }, { attribute_name: "contact_ids" }],
    ]);
    expect(known.url).toBeUndefined();
    expect(known.tags).toEqual(["prod"]);
    expect(known.settings).toEqual({ followRedirects: false, headers: { "X-Api_Key": "k" } });
    expect(toMembers(unknown, monitorType)).toEqual({ members: {}, unknown: [[]] });
  });

  it("keeps planned unknowns and converts members the way cty converts", () => {
    const planned = fromMembers({ ...members, id: unknown, interval: "120", name: 7 }, monitorType);
    expect(planned.id).toBe(unknown);
    expect(planned.interval).toBe(120);
    expect(planned.name).toBe("7");
    expect(() => fromMembers({ enabled: "yes" }, monitorType)).toThrow("enabled: bool is required");
  });

  it("wraps a dynamic attribute's member with its implied type, keys as they are", () => {
    const type = object({ extra: "dynamic" });
    const cty = fromMembers({ extra: { someKey: [1, "a"] } }, type);
    expect(cty.extra).toEqual(
      new Dynamic(object({ someKey: tuple(["number", "string"]) }), { someKey: [1, "a"] }),
    );
    expect(toMembers(roundTrip(cty, type), type).members).toEqual({ extra: { someKey: [1, "a"] } });
  });
});
