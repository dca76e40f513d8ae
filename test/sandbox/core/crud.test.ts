/**
 * `crudOperations` derives a kind's standard routes from its definition: the bodies with the kind's
 * required members, the paths, the codes its rules imply, and the members `fields` keeps.
 */
import { describe, expect, it } from "vitest";
import { kinds, membersOf, monitorKind, webhookKind } from "../../../src/kinds/index.ts";
import { createBodyOf, rowFieldsOf, updateBodyOf } from "../../../src/sandbox/core/crud.ts";
import { allOperations } from "../../../src/sandbox/operations.ts";

const operations = allOperations();
const find = (method: string, path: string) => operations.find((o) => o.method === method && o.path === path);

describe("createBodyOf", () => {
  it.each(kinds.filter((k) => k.required).map((k) => [k.name, k] as const))(
    "%s: an empty create names exactly the kind's required members",
    (_name, kind) => {
      const parsed = createBodyOf(kind).safeParse({});
      expect(parsed.success).toBe(false);
      const missing = parsed.error!.issues.map((i) => i.path.join("/")).sort();
      expect(missing).toEqual([...kind.required!].sort());
    },
  );

  it("takes no read-only member, and an update takes no create-only one", () => {
    for (const kind of kinds) {
      const create = Object.keys(createBodyOf(kind).shape);
      const update = Object.keys(updateBodyOf(kind).shape);
      for (const { name, traits } of membersOf(kind.schema)) {
        if (traits.readOnly) expect(create, `${kind.name}.${name}`).not.toContain(name);
        if (traits.createOnly) expect(update, `${kind.name}.${name}`).not.toContain(name);
      }
    }
  });
});

describe("rowFieldsOf", () => {
  it("keeps the members a read answers, then the blocks, each once", () => {
    const fields = rowFieldsOf(monitorKind, ["settings", "attached"]);
    expect(fields.slice(0, 3)).toEqual(["id", "type", "url"]);
    expect(fields).toContain("effectiveUrl");
    expect(fields).toContain("overlimited");
    // Written only: addTags on updates, contacts on creates, onOverlimit never read back.
    for (const written of ["addTags", "removeTags", "contacts", "onOverlimit"])
      expect(fields).not.toContain(written);
    expect(fields.filter((f) => f === "settings")).toHaveLength(1);
    expect(fields.at(-1)).toBe("attached");
  });
});

describe("the routes it serves", () => {
  const standard = kinds.filter((k) => !k.relations?.parent);

  it.each(standard.map((k) => [k.name, k] as const))(
    "%s: get, update and delete at its item path",
    (_name, kind) => {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const op = find(method, kind.paths.item);
        expect(op, `${method} ${kind.paths.item}`).toBeDefined();
        expect(op!.errors).toContain("not_found");
      }
      expect(find("POST", kind.paths.collection)?.body).toBeDefined();
    },
  );

  it("answers a kind's duplicate code on its writes, and package_limit on creates of a kind with a quota", () => {
    const create = find("POST", webhookKind.paths.collection)!;
    const update = find("PATCH", webhookKind.paths.item)!;
    expect(create.errors).toEqual(expect.arrayContaining(["duplicate_resource", "package_limit"]));
    expect(update.errors).toContain("duplicate_resource");
    expect(update.errors).not.toContain("package_limit");
  });
});
