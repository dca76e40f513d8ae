/**
 * The data sources: the monitor type catalogue, the location pools, the account, and one monitor looked up by
 * id or by url and type. Each answers with one or two calls; values follow the schemas in schema.ts.
 */
import type { Operations } from "../api/index.ts";
import { readCatalogue } from "../engine/catalogue.ts";
import { engineKind, type Row } from "../engine/index.ts";
import {
  blockType,
  type CtyValue,
  fromMembers,
  isKnown,
  isObjectValue,
  type ObjectType,
  toMembers,
} from "./cty.ts";
import type { Diagnostic } from "./plugin/protocol.ts";
import { liveValue } from "./resource-values.ts";
import {
  type DataSourceType,
  dataSourceSchema,
  dataSourceTypes,
  resourceRules,
  resourceSchema,
} from "./schema.ts";

const types = new Map<string, ObjectType>();
export function dataSourceType(typeName: string): ObjectType {
  if (!(dataSourceTypes as readonly string[]).includes(typeName))
    throw new Error(`unknown data source ${typeName}`);
  let type = types.get(typeName);
  if (!type) {
    type = blockType(dataSourceSchema(typeName as DataSourceType).block);
    types.set(typeName, type);
  }
  return type;
}

const lookupError = (detail: string): Diagnostic => ({
  severity: "ERROR",
  summary: "vigil_monitor needs id, or url and type",
  detail,
});

/** A data source config that cannot work: vigil_monitor without a way to find the monitor. */
export function validateDataSource(typeName: string, config: CtyValue): Diagnostic[] {
  if (typeName !== "vigil_monitor" || !isObjectValue(config)) return [];
  const [id, url, type] = [config.id ?? null, config.url ?? null, config.type ?? null];
  // Values decided only at apply are judged then.
  if (![id, url, type].every(isKnown)) return [];
  if (id !== null && (url !== null || type !== null))
    return [lookupError("Give id alone, or url and type: not both ways at once.")];
  if (id === null && (url === null || type === null))
    return [lookupError("Without id, both url and type are needed (several monitors may share a url).")];
  return [];
}

export async function readDataSource(ops: Operations, typeName: string, config: CtyValue): Promise<CtyValue> {
  const type = dataSourceType(typeName);
  switch (typeName) {
    case "vigil_monitor_types":
      return fromMembers(await readCatalogue(ops, "monitorTypes"), type);
    case "vigil_agent_pools":
      return fromMembers(await readCatalogue(ops, "agentPools"), type);
    case "vigil_account":
      return fromMembers(await readCatalogue(ops, "account"), type);
    case "vigil_monitor":
      return fromMonitor(await findMonitor(ops, toMembers(config, type).members), type);
  }
  throw new Error(`unknown data source ${typeName}`);
}

async function findMonitor(ops: Operations, lookup: Row): Promise<Row> {
  const kind = engineKind("monitor");
  if (typeof lookup.id === "string") return kind.getOne(ops, { id: lookup.id });
  const found = await ops.monitor.all({ filters: { url: String(lookup.url), type: String(lookup.type) } });
  // The list filters on url loosely (the effective url too): the match must be exact.
  const exact = found.filter((m) => m.url === lookup.url && m.type === lookup.type);
  if (exact.length !== 1)
    throw new Error(
      exact.length === 0
        ? `No ${lookup.type} monitor has the url ${lookup.url}.`
        : `${exact.length} ${lookup.type} monitors have the url ${lookup.url}; look one up by id.`,
    );
  return kind.getOne(ops, exact[0]!);
}

/** A monitor as the data source shows it: the resource's view of the live object, read-back members only. */
function fromMonitor(row: Row, type: ObjectType): CtyValue {
  const resource = "vigil_monitor";
  const { attributes } = resourceSchema(resource).block;
  return liveValue(engineKind("monitor"), type, attributes, resourceRules(resource).sensitive, row);
}
