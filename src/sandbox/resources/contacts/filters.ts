import { contactTypes } from "../../../kinds/index.ts";
import type { Filter } from "../../core/list.ts";
import { type ContactDoc, contactName } from "./doc.ts";

/** The filters of `GET /contact` and `POST /contact/q`; bulk deletes select with the same ones. */
export const contactListFilters: Record<string, Filter<ContactDoc>> = {
  q: {
    param: { type: "string", description: "Substring of the name or address, any case." },
    match: (c, q: string) => `${contactName(c)}\n${c.address}`.toLowerCase().includes(q.toLowerCase()),
  },
  type: {
    param: { type: "enum", values: contactTypes, list: true, description: "Any of these types." },
    match: (c, types: string[]) => types.includes(c.type),
  },
  confirmed: {
    param: { type: "bool", description: "Confirmed or not." },
    match: (c, confirmed: boolean) => c.confirmed === confirmed,
  },
  id: {
    param: { type: "string", list: true, description: "Any of these ids." },
    match: (c, ids: string[]) => ids.includes(c.id),
  },
};
