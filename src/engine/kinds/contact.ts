import { contactGroupKind, contactKind, maintenanceKind } from "../../kinds/index.ts";
import { keyFrom, plainKind } from "./engine-kind.ts";

export const contactEngineKind = plainKind("contact", "contacts", contactKind, (o) => o.contacts as never, {
  // List rows carry templates only when asked.
  expand: ["template"],
  // Email addresses compare without case, as the service compares them.
  naturalKey: (m) =>
    keyFrom([
      m.type,
      m.type === "email" && typeof m.address === "string" ? m.address.toLowerCase() : m.address,
    ]),
});

export const contactGroupEngineKind = plainKind(
  "contactGroup",
  "contactGroups",
  contactGroupKind,
  (o) => o.contactGroups as never,
);

export const maintenanceEngineKind = plainKind(
  "maintenance",
  "maintenance",
  maintenanceKind,
  (o) => o.maintenance as never,
);
