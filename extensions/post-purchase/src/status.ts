// The blocks' logic without the `shopify` global (the two targets' APIs differ): whether the order carries the
// opt-in, where the app is, and the app's answer about the order's protection.
import {
  ACCEPTED,
  CHOICE_ATTRIBUTE,
  CONFIG_KEY,
  PROTECTION_STATUS_PATH,
  REFERENCE_ATTRIBUTE,
  SHOP_CONFIG_NAMESPACE,
} from "@purchase-protection/contract";

/** What the app answers (app/routes/extensions.protection-status.ts). */
export type ProtectionStatus =
  | {
      protected: boolean;
      status: "active" | "voided" | "cancelled";
      referenceNumber: string;
      freeLookEndsAt: string;
      portalUrl: string;
    }
  | { protected: false; status: "pending"; portalUrl: string };

/** The pieces of an app metafield entry both targets' types share. */
export interface MetafieldEntry {
  metafield: { namespace: string; key: string; value: unknown };
}

/**
 * The buyer took the protection: the order's `_protection` attribute, or the reference the app wrote back once it made
 * the plan (an accelerated checkout drops the attribute; the protection line made the plan). Anything else shows
 * nothing.
 */
export const optedIn = (attributes: { key: string; value: string }[] | undefined) =>
  attributes?.some(
    (entry) => (entry.key === CHOICE_ATTRIBUTE && entry.value === ACCEPTED) || entry.key === REFERENCE_ATTRIBUTE,
  ) ?? false;

/** The app's status route, on the origin of the storefront config's apiBase; null without a usable config. */
export function statusUrl(entries: MetafieldEntry[]): string | null {
  const raw = entries.find(
    ({ metafield }) => metafield.namespace === SHOP_CONFIG_NAMESPACE && metafield.key === CONFIG_KEY,
  )?.metafield.value;
  try {
    const apiBase: unknown = JSON.parse(String(raw)).apiBase;
    return typeof apiBase === "string" ? new URL(PROTECTION_STATUS_PATH, apiBase).href : null;
  } catch {
    return null;
  }
}

/** The numeric order id from an Order or OrderIdentity gid (the Thank-you page has the latter). */
export const numericOrderId = (gid: string | undefined) => /\/(\d+)$/.exec(gid ?? "")?.[1] ?? null;

const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;
const isHttpUrl = (value: unknown): value is string => isText(value) && /^https?:\/\//.test(value);

/** The order's protection; null on any failure, a 404 (nothing to show) or a malformed answer. */
export async function requestStatus(
  url: string,
  orderId: string,
  sessionToken: { get(): Promise<string> },
  signal: AbortSignal,
): Promise<ProtectionStatus | null> {
  try {
    const response = await fetch(`${url}?orderId=${orderId}`, {
      signal,
      headers: { Authorization: `Bearer ${await sessionToken.get()}` },
    });
    if (!response.ok) return null;
    const body = await response.json();
    if (!isHttpUrl(body?.portalUrl)) return null;
    if (body.status === "pending") return { protected: false, status: "pending", portalUrl: body.portalUrl };
    const known = ["active", "voided", "cancelled"].includes(body.status);
    if (!known || !isText(body.referenceNumber) || Number.isNaN(Date.parse(body.freeLookEndsAt))) return null;
    const { status, referenceNumber, freeLookEndsAt, portalUrl } = body;
    return { protected: status === "active", status, referenceNumber, freeLookEndsAt, portalUrl };
  } catch {
    return null;
  }
}

/** The portal's look-up page, the reference filled in when there is one. */
export const portalLink = (portalUrl: string, referenceNumber?: string) =>
  referenceNumber ? `${portalUrl}?reference=${encodeURIComponent(referenceNumber)}` : portalUrl;
