import { type MonitorType, monitorStates, monitorTypeNames } from "../../../kinds/index.ts";
import type { Filter } from "../../core/list.ts";
import { monitorState } from "../maintenance/model.ts";
import { type MonitorDoc, monitorName } from "./model.ts";

/** The filters of `GET /monitor` and `POST /monitor/q`; bulk deletes select with the same ones. */
export const monitorListFilters: Record<string, Filter<MonitorDoc>> = {
  q: {
    param: { type: "string", description: "Substring of the name or address, case-insensitive." },
    match: (m, q: string) => `${monitorName(m)}\n${m.url ?? ""}`.toLowerCase().includes(q.toLowerCase()),
  },
  type: {
    param: { type: "enum", values: monitorTypeNames, list: true },
    match: (m, types: MonitorType[]) => types.includes(m.type),
  },
  tag: {
    param: { type: "string", list: true },
    match: (m, tags: string[]) => m.tags.some((t) => tags.includes(t)),
  },
  state: {
    param: { type: "enum", values: monitorStates, list: true },
    match: (m, states: string[], ctx) => states.includes(monitorState(ctx, m)),
  },
  enabled: { param: { type: "bool" }, match: (m, enabled: boolean) => m.enabled === enabled },
  url: {
    param: { type: "string", list: true, description: "Exact address (as sent or as normalised)." },
    match: (m, urls: string[]) => urls.includes(m.url ?? "") || urls.includes(m.effectiveUrl ?? ""),
  },
};
