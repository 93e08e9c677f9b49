import { parseSignatureHeader, verifyWebhook } from "../../packages/sdk/src/webhooks.ts";

export type VerifyOutcome = "valid" | "expired" | "future" | "tampered" | "malformed";

/** The TypeScript SDK's verdict on a delivery, with the reason when it refuses (as test/vectors name them). */
export async function verifyOutcome(
  header: string,
  rawBody: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): Promise<VerifyOutcome> {
  const parsed = parseSignatureHeader(header);
  if (parsed === null) return "malformed";
  if (nowSeconds - parsed.timestamp > toleranceSeconds) return "expired";
  if (parsed.timestamp - nowSeconds > toleranceSeconds) return "future";
  return (await verifyWebhook(rawBody, header, secret, { now: nowSeconds, toleranceSeconds })) ? "valid" : "tampered";
}
