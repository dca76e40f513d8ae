import { randomBytes, randomUUID } from "node:crypto";

export const newGuid = (): string => randomUUID();
export const newPrefixedId = (prefix: string): string => `${prefix}${randomBytes(12).toString("hex")}`;
export const newRequestId = (): string => `req_${randomBytes(10).toString("hex")}`;
