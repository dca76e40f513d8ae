import { contactGroupKind, contactKind, maintenanceKind } from "../../kinds/index.ts";
import { keyFrom, plainKind } from "./engine-kind.ts";

export const contactEngineKind = plainKind(contactKind, "contacts", {
  // List rows carry templates only when asked.
  expand: ["template"],
  // Email addresses compare without case, as the service compares them.
  naturalKey: (m) =>
    keyFrom([
      m.type,
      m.type === "email" && typeof m.address === "string" ? m.address.toLowerCase() : m.address,
    ]),
});

export const contactGroupEngineKind = plainKind(contactGroupKind, "contactGroups");

export const maintenanceEngineKind = plainKind(maintenanceKind, "maintenance");
