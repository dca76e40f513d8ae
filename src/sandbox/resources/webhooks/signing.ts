import { createHmac, randomBytes } from "node:crypto";

/** A generated secret: `whsec_` and the base64 of 24 random bytes, the Standard Webhooks form. */
export const generateSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

const canonicalBase64 = (text: string) =>
  text.length > 0 && text.length % 4 === 0 && Buffer.from(text, "base64").toString("base64") === text;

/**
 * The Standard Webhooks key of a secret: without `whsec_`, base64-decoded (what
 * `new Webhook(secret)` does). An own secret whose remainder is not canonical
 * base64 has no such reading; its key is then the whole secret's UTF-8 bytes
 * (verify with `new Webhook(Buffer.from(secret), {format: "raw"})`).
 */
export function standardKey(secret: string): Buffer {
  const rest = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  return canonicalBase64(rest) ? Buffer.from(rest, "base64") : Buffer.from(secret, "utf8");
}

/**
 * The signature headers of one send of a body: `SVC-Signature` (key: the whole
 * secret string) and the Standard Webhooks trio. During a rotation `secrets`
 * holds the new and the previous secret, and each header carries both.
 */
export function signatureHeaders(
  deliveryId: string,
  body: string,
  secrets: readonly string[],
  timestamp: number,
): Record<string, string> {
  const svc = secrets.map(
    (s) => `v1=${createHmac("sha256", s).update(`${timestamp}.${body}`).digest("hex")}`,
  );
  const standard = secrets.map(
    (s) =>
      `v1,${createHmac("sha256", standardKey(s)).update(`${deliveryId}.${timestamp}.${body}`).digest("base64")}`,
  );
  return {
    "SVC-Signature": `t=${timestamp},${svc.join(",")}`,
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standard.join(" "),
  };
}
