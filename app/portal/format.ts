// What only the portal writes or reads: typed amounts (read by the one parser of people's money, the contract's
// parseTypedMoney), the free-look countdown, file sizes and the evidence limits, in the buyer's language (`t`; English
// when not given). Money and dates are the app's (../ui/format.ts).
import { parseTypedMoney } from "@purchase-protection/contract";
import { portalMessages, type PortalText } from "./messages.ts";
import type { PortalRulebook } from "../../server/index.ts";

const english = portalMessages.in("en");

/** An amount a buyer typed ("$129.99", "129.99", "129,99") in minor units, or undefined when it is not one. */
export const parseMoney = (input: string, currency: string) => parseTypedMoney(input, currency);

/** "12 h 05 min" until `endsAt` (rounded up to the minute), or undefined once it has passed. */
export function remainingText(endsAt: string, now: number, t: PortalText = english): string | undefined {
  const ms = Date.parse(endsAt) - now;
  if (!(ms > 0)) return undefined;
  const total = Math.ceil(ms / 60_000);
  const hours = Math.floor(total / 60);
  const minutes = String(total % 60);
  return hours > 0
    ? t("countdownHours", { hours, minutes: minutes.padStart(2, "0") })
    : t("countdownMinutes", { minutes });
}

/** A file size as the portal says it: "10 MB", "340 KB" (one decimal at most; the unit in the buyer's language). */
export const formatSize = (bytes: number, t: PortalText = english) =>
  bytes >= 1024 * 1024
    ? t("sizeMegabytes", { size: Number((bytes / (1024 * 1024)).toFixed(1)) })
    : t("sizeKilobytes", { size: Math.max(1, Math.round(bytes / 1024)) });

/** An evidence quota as the portal says it: "20 files and 50 MB". */
export const formatQuota = (quota: { maxFiles: number; maxBytes: number }, t: PortalText = english) =>
  t("quota", { files: quota.maxFiles, size: formatSize(quota.maxBytes, t) });

/** The evidence field's hint on both claim forms: the per-filing limits and what one request holds in all. */
export const evidenceHint = (evidence: PortalRulebook["evidence"], t: PortalText = english) =>
  t("claim.evidenceHint", {
    maxFiles: evidence.maxFiles,
    maxSize: formatSize(evidence.maxFileBytes, t),
    perRequest: formatQuota(evidence.quotas.claim, t),
  });
