// What only the portal writes or reads: typed amounts (read by the one parser of people's money, the contract's
// parseTypedMoney), the free-look countdown and the evidence limits. Money, dates and file sizes are the app's
// (../ui/format.ts).
import { parseTypedMoney } from "@purchase-protection/contract";
import { formatBytes } from "../ui/format.ts";
import { messages } from "./messages.ts";
import type { PortalRulebook } from "../../server/index.ts";

/** An amount a buyer typed ("$129.99", "129.99", "129,99") in minor units, or undefined when it is not one. */
export const parseMoney = (input: string, currency: string) => parseTypedMoney(input, currency);

/** "12 h 05 min" until `endsAt` (rounded up to the minute), or undefined once it has passed. */
export function remainingText(endsAt: string, now: number): string | undefined {
  const ms = Date.parse(endsAt) - now;
  if (!(ms > 0)) return undefined;
  const minutes = Math.ceil(ms / 60_000);
  return messages.countdown(Math.floor(minutes / 60), minutes % 60);
}

/** An evidence quota as the portal says it: "20 files and 50 MB". */
export const formatQuota = (quota: { maxFiles: number; maxBytes: number }) =>
  `${quota.maxFiles} files and ${formatBytes(quota.maxBytes)}`;

/** The evidence field's hint on both claim forms: the per-filing limits and what one request holds in all. */
export const evidenceHint = (evidence: PortalRulebook["evidence"]) =>
  messages.claim.evidenceHint(
    evidence.maxFiles,
    formatBytes(evidence.maxFileBytes),
    formatQuota(evidence.quotas.claim),
  );
