import { alertTypes } from "../../../kinds/index.ts";
import { defineOperations } from "../../core/operation.ts";
import { anonymous } from "./anonymous.ts";

const descriptions: Record<(typeof alertTypes)[number], string> = {
  down: "The monitor went down: a failure confirmed by recheck, after the contact's alert delay.",
  up: "The monitor recovered after a down alert.",
  repeatedlyDown: "The monitor is still down: a reminder at each still-down tier.",
};

export const alertTypeOperations = defineOperations({
  ...anonymous,
  id: "alertType.list",
  method: "GET",
  path: "/alert/type",
  summary: "Alert types an alert subscription can carry.",
  errors: ["unknown_parameter", "invalid_token", "rate_limited"],
  response: { status: 200, description: "{data: [{type, description, event}]}." },
  handle: () => ({
    status: 200,
    body: {
      data: alertTypes.map((type) => ({ type, description: descriptions[type], event: `monitor.${type}` })),
    },
  }),
});
