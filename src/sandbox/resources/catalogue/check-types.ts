import { devices, monitorTypes, traitsOf, waterfallSettings } from "../../../kinds/index.ts";
import { instantCheckTypes } from "../../../kinds/instant-check.ts";
import { defineOperations } from "../../core/operation.ts";
import { anonymous } from "./anonymous.ts";

const defaultDevice = traitsOf(waterfallSettings.shape.deviceEmulation).default;

export const checkTypeOperations = defineOperations(
  {
    ...anonymous,
    id: "checkType.list",
    method: "GET",
    path: "/check/type",
    summary: "Types an instant check can run: the location-based monitor types.",
    errors: ["unknown_parameter", "invalid_token", "rate_limited"],
    response: { status: 200, description: "{data: [{type, label, url, fleet, feature}]}." },
    handle: () => ({
      status: 200,
      body: {
        data: instantCheckTypes.map((type) => ({
          type,
          label: monitorTypes[type].label,
          url: monitorTypes[type].url,
          fleet: monitorTypes[type].fleet,
          feature: monitorTypes[type].feature,
        })),
      },
    }),
  },
  {
    ...anonymous,
    id: "checkDevice.list",
    method: "GET",
    path: "/check/device",
    summary: "Devices browser checks can emulate (waterfall deviceEmulation).",
    errors: ["unknown_parameter", "invalid_token", "rate_limited"],
    response: { status: 200, description: "{data: [{name, default}]}." },
    handle: () => ({
      status: 200,
      body: { data: devices.map((name) => ({ name, default: name === defaultDevice })) },
    }),
  },
);
