import type { z } from "zod";
import {
  bodySchema,
  type KindDefinition,
  type LeafScope,
  membersOf,
  type ProblemCodeName,
} from "../../kinds/index.ts";
import { parseExpand, pickFields } from "./list.ts";
import type { Ctx, Operation, OpRequest } from "./operation.ts";
import type { QueryParam } from "./query.ts";

/** `POST` to a kind's collection: every writable member, the kind's `required` ones required. */
export function createBodyOf(kind: KindDefinition): z.ZodObject {
  const required = Object.fromEntries((kind.required ?? []).map((name) => [name, true as const]));
  return bodySchema(kind.schema, "create").required(required as never);
}

/** `PATCH` of a kind's item: any writable member. */
export const updateBodyOf = (kind: KindDefinition): z.ZodObject => bodySchema(kind.schema, "update");

/**
 * The top-level members a read of the kind answers, which `fields` may keep: every member but those only
 * written (create-only, input-only, update-only), then the blocks its reads add (`extra`).
 */
export function rowFieldsOf(kind: KindDefinition, extra: readonly string[] = []): string[] {
  const read = membersOf(kind.schema)
    .filter(({ traits }) => !traits.createOnly && !traits.inputOnly && !traits.updateOnly)
    .map(({ name }) => name);
  return [...new Set([...read, ...extra])];
}

type Rendered = Record<string, unknown>;

/** What a write answers: the object, rendered as a read renders it, or an answer of its own (a secret shown once). */
export type Written<Doc> = Doc | { doc: Doc; answer: Rendered };

interface WriteSpec {
  summary: string;
  /** Codes beyond those the kind implies (validation, not found, its duplicate code, its quotas). */
  errors?: readonly ProblemCodeName[];
  /** The body, from the one derived from the kind (extended where the API accepts more on the wire). */
  body?: (derived: z.ZodObject) => z.ZodType;
  /** The answer's description, where it says more than the kind's title. */
  description?: string;
}

/**
 * The standard routes of a managed kind, described once: the domain functions (what each write does to the
 * store, with its events) and how an object reads back. `crudOperations` derives the rest from the kind:
 * paths, bodies and their required members, the codes its rules imply, answers and `Location`.
 */
export interface CrudSpec<Doc extends { id: string }, Create, Update> {
  kind: KindDefinition;
  /** The operationId prefix: `contact.group` gives `contact.group.get`. */
  id: string;
  scopes: { read: LeafScope; write: LeafScope };
  /** The account's object at this id, or 404 (another account's id answers alike). */
  load: (ctx: Ctx, id: string) => Doc;
  /** The object as reads, creates and updates answer it. */
  render: (ctx: Ctx, doc: Doc) => Rendered;
  /** What answers follow, where it is not the kind's schema (a webhook's masked secret). */
  readSchema?: z.ZodType;
  /** Article and noun of answers' descriptions, where the kind's title reads badly: `The window.` */
  noun?: string;
  get: {
    summary: string;
    /** `expand` on a single read: its tokens, those it answers without one, and the rendering they pick. */
    expand?: {
      tokens: readonly string[];
      defaults: readonly string[];
      render: (ctx: Ctx, doc: Doc, expand: ReadonlySet<string>) => Rendered;
    };
    /** Members `fields` may keep (`rowFieldsOf`); absent, reads take no `fields`. */
    fields?: readonly string[];
  };
  create?: WriteSpec & {
    idempotency?: Operation["idempotency"];
    write: (ctx: Ctx, body: Create, req: OpRequest) => Written<Doc>;
  };
  update?: WriteSpec & { write: (ctx: Ctx, doc: Doc, body: Update, req: OpRequest) => Written<Doc> };
  delete?: {
    summary: string;
    errors?: readonly ProblemCodeName[];
    /** Removes the object and what goes with it; answers the receipt. */
    write: (ctx: Ctx, doc: Doc) => Rendered;
    receipt: { description: string; schema?: z.ZodType };
  };
}

const unique = (codes: readonly ProblemCodeName[]) => [...new Set(codes)];

/** The `GET` of one object, with `expand` and `fields` where the spec takes them. */
function getOperation<Doc extends { id: string }, Create, Update>(
  spec: CrudSpec<Doc, Create, Update>,
  schema: z.ZodType,
  noun: string,
  load: (ctx: Ctx, req: OpRequest) => Doc,
): Operation {
  const { get } = spec;
  const query: Record<string, QueryParam> = {};
  if (get.expand)
    query.expand = { type: "string", list: true, description: `Blocks: ${get.expand.tokens.join(", ")}.` };
  if (get.fields)
    query.fields = { type: "string", list: true, description: "Top-level members to keep (id always)." };
  return {
    id: `${spec.id}.get`,
    method: "GET",
    path: spec.kind.paths.item,
    summary: get.summary,
    scope: spec.scopes.read,
    ...(Object.keys(query).length > 0 && { query }),
    errors: unique([
      "not_found",
      ...(get.expand ? (["unknown_expand"] as const) : []),
      ...(get.fields ? (["unknown_field"] as const) : []),
    ]),
    response: { status: 200, description: `${noun}.`, schema },
    handle: (ctx, req) => {
      const doc = load(ctx, req);
      const body = get.expand
        ? get.expand.render(ctx, doc, parseExpand(req, get.expand.tokens, get.expand.defaults))
        : spec.render(ctx, doc);
      return { status: 200, body: get.fields ? pickFields(req, body, get.fields) : body };
    },
  };
}

/** `GET`, `POST`, `PATCH` and `DELETE` of a kind, as `listOperations` derives its lists. */
export function crudOperations<Doc extends { id: string }, Create = never, Update = never>(
  spec: CrudSpec<Doc, Create, Update>,
): Operation[] {
  const { kind, scopes } = spec;
  const schema = spec.readSchema ?? kind.schema;
  const noun = spec.noun ?? `The ${kind.title.toLowerCase()}`;
  const rules = kind.rules;
  // A kind's declared duplicate code answers every write that sets its natural key; its quotas refuse creates.
  const duplicate = rules?.duplicate ? [rules.duplicate] : [];
  const quota: ProblemCodeName[] = rules?.quotas?.length ? ["package_limit"] : [];
  const location = (id: string) => kind.paths.item.replace("{id}", id);
  const answer = (ctx: Ctx, written: Written<Doc>) =>
    "answer" in written && "doc" in written
      ? { doc: written.doc, body: written.answer }
      : { doc: written as Doc, body: spec.render(ctx, written as Doc) };
  const load = (ctx: Ctx, req: OpRequest) => spec.load(ctx, req.params.id!);

  const operations: Operation[] = [getOperation(spec, schema, noun, load)];
  const { create, update } = spec;
  if (create) {
    operations.push({
      id: `${spec.id}.create`,
      method: "POST",
      path: kind.paths.collection,
      summary: create.summary,
      scope: scopes.write,
      body: (create.body ?? ((b) => b))(createBodyOf(kind)),
      ...(create.idempotency && { idempotency: create.idempotency }),
      errors: unique([
        "validation_failed",
        ...(create.errors ?? []),
        ...duplicate,
        ...quota,
        ...(create.idempotency ? (["idempotency_key_required"] as const) : []),
      ]),
      response: { status: 201, description: create.description ?? `${noun}.`, schema },
      handle: (ctx, req) => {
        const { doc, body } = answer(ctx, create.write(ctx, req.body as Create, req));
        return { status: 201, headers: { Location: location(doc.id) }, body };
      },
    });
  }
  if (update) {
    operations.push({
      id: `${spec.id}.update`,
      method: "PATCH",
      path: kind.paths.item,
      summary: update.summary,
      scope: scopes.write,
      body: (update.body ?? ((b) => b))(updateBodyOf(kind)),
      errors: unique(["not_found", "validation_failed", ...(update.errors ?? []), ...duplicate]),
      response: { status: 200, description: update.description ?? `${noun}.`, schema },
      handle: (ctx, req) => {
        const doc = load(ctx, req);
        return { status: 200, body: answer(ctx, update.write(ctx, doc, req.body as Update, req)).body };
      },
    });
  }
  const remove = spec.delete;
  if (remove) {
    operations.push({
      id: `${spec.id}.delete`,
      method: "DELETE",
      path: kind.paths.item,
      summary: remove.summary,
      scope: scopes.write,
      errors: unique(["not_found", ...(remove.errors ?? [])]),
      response: { status: 200, ...remove.receipt },
      handle: (ctx, req) => ({ status: 200, body: remove.write(ctx, load(ctx, req)) }),
    });
  }
  return operations;
}
