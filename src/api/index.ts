export * from "./client.ts";
export * from "./errors.ts";
export * from "./metrics.ts";
export * from "./redact.ts";
export * from "./transport.ts";
export * from "./types.ts";
