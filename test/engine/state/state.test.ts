import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  digestOf,
  hashSecret,
  newState,
  StateFileError,
  validateState,
} from "../../../src/engine/state/index.ts";

function stateWith(resource: Record<string, unknown>) {
  return {
    ...newState(),
    resources: {
      "monitors.api": { kind: "monitor", id: "m1", naturalKey: {}, managed: {}, ...resource },
    },
  };
}

function failure(value: unknown): StateFileError {
  try {
    validateState(value, "/tmp/s.json");
  } catch (error) {
    expect(error).toBeInstanceOf(StateFileError);
    return error as StateFileError;
  }
  throw new Error("expected a StateFileError");
}

describe("newState", () => {
  it("starts empty at serial 0 with a random lineage", () => {
    const a = newState();
    expect(a).toMatchObject({ format_version: 1, serial: 0, syncCursors: {}, resources: {} });
    expect(a.lineage).toMatch(/^[0-9a-f-]{36}$/);
    expect(newState().lineage).not.toBe(a.lineage);
    expect(validateState(a, "x")).toEqual(a);
  });
});

describe("validateState", () => {
  it("accepts a full state", () => {
    const state = {
      ...stateWith({
        secrets: { "/settings/password": hashSecret("l", "pw") },
        pending: {
          action: "update",
          idempotencyKey: "k",
          bodyDigest: digestOf({}),
          startedAt: 1,
          jobId: "j",
        },
      }),
      accountId: "acc",
      syncCursors: { monitor: "c1", contact: "c2" },
    };
    expect(validateState(state, "x")).toEqual(state);
  });

  it("names the file and the missing member of a foreign file", () => {
    const error = failure({ name: "some-package", version: "1.0.0" });
    expect(error.pointer).toBe("/format_version");
    expect(error.file).toBe("/tmp/s.json");
    expect(error.message).toBe(
      "state file /tmp/s.json is not a valid vigil state: at /format_version: is required; expected 1",
    );
  });

  it("points at the whole document when it is not an object", () => {
    const error = failure([1, 2]);
    expect(error.pointer).toBe("");
    expect(error.message).toContain("at the document root: expected object, got array");
  });

  it("points at a bad kind and lists the kinds", () => {
    const error = failure(stateWith({ kind: "monitors" }));
    expect(error.pointer).toBe("/resources/monitors.api/kind");
    expect(error.message).toContain('must be one of "contact", "contactGroup", "monitor"');
  });

  it("escapes pointer segments and says what a hash looks like", () => {
    const error = failure(stateWith({ secrets: { "/settings/password": "hunter2" } }));
    expect(error.pointer).toBe("/resources/monitors.api/secrets/~1settings~1password");
    expect(error.message).toContain("expected sha256: followed by 64 hex digits");
  });

  it("refuses unknown members, naming the allowed ones", () => {
    const error = failure({ ...newState(), resource: {} });
    expect(error.pointer).toBe("/resource");
    expect(error.message).toContain('unknown member "resource"');
    expect(error.message).toContain("allowed: format_version, lineage, serial, accountId");
  });

  it("refuses a sync cursor of an unknown kind", () => {
    const error = failure({ ...newState(), syncCursors: { monitors: "c" } });
    expect(error.pointer).toBe("/syncCursors/monitors");
    expect(error.message).toContain("allowed: contact, contactGroup, monitor");
  });

  it("says when a newer vigil wrote the file", () => {
    const error = failure({ ...newState(), format_version: 2 });
    expect(error.pointer).toBe("/format_version");
    expect(error.message).toContain("format_version 2, written by a newer vigil; this one reads 1");
  });

  it("refuses a negative or fractional serial", () => {
    expect(failure({ ...newState(), serial: -1 }).pointer).toBe("/serial");
    expect(failure({ ...newState(), serial: 1.5 }).pointer).toBe("/serial");
  });
});

describe("canonicalJson and digestOf", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("refuses a value with no JSON form", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it("digests the canonical text", () => {
    const expected = createHash("sha256").update('{"a":1,"b":2}').digest("hex");
    expect(digestOf({ b: 2, a: 1 })).toBe(`sha256:${expected}`);
  });
});

describe("hashSecret", () => {
  it("is stable for equal values, whatever the key order", () => {
    const a = hashSecret("lineage-1", { user: "u", password: "p" });
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hashSecret("lineage-1", { password: "p", user: "u" })).toBe(a);
    expect(hashSecret("lineage-1", { user: "u", password: "q" })).not.toBe(a);
  });

  it("is salted by the lineage and is not a plain digest", () => {
    const a = hashSecret("lineage-1", "s3cret");
    expect(hashSecret("lineage-2", "s3cret")).not.toBe(a);
    expect(a).not.toBe(digestOf("s3cret"));
    expect(a).not.toContain("s3cret");
  });
});
