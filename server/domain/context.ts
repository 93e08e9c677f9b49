import type { Queryable } from "../store/database.ts";
import type { RandomSource } from "./ids.ts";
import type { HostResolver } from "../webhooks/address-policy.ts";
import type { EvidenceStore } from "../evidence/store.ts";
import type { StuckClaimPayout, StuckFeeRefund } from "../vocabulary/channel-actions.ts";

export interface Settings {
  /** Legal name printed in the disclosure ("…provided by <companyName>."). */
  companyName: string;
  /** Consumer portal base URL (coverage details, free-look cancellation, claims). */
  portalUrl: string;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: test-mode webhook endpoints may reach loopback and private addresses (default false). */
  allowPrivateWebhookUrls?: boolean;
  /** DELIVERY_STALLED_AFTER_DAYS: days without a carrier scan after which a parcel is presumed lost (default 10). */
  deliveryStalledAfterDays?: number;
}

/** What every domain operation may use besides the database: injected so tests control time and chance. */
export interface Services {
  clock: () => number;
  random: RandomSource;
  settings: Settings;
  /** DNS for webhook URL checks (default: the system resolver); tests inject one so nothing leaves loopback. */
  resolveHost?: HostResolver;
  /** Where buyers' claim evidence is stored (DATA_DIR/evidence by default); tests use a temporary folder. */
  evidence?: EvidenceStore;
  /** The sales channel app's payouts that gave up (the Shopify app's, where it runs); none listed without it. */
  channelActions?: ChannelActions;
}

/** What a sales channel's app gave up doing for a shop's merchant: the core's port, the app's tables behind it. */
export interface ChannelActions {
  /** The shop's claim payouts and fee refunds whose job gave up, newest first, up to `limit` of each. */
  stuckPayouts(
    db: Queryable,
    shop: string,
    limit: number,
  ): Promise<{ claims: StuckClaimPayout[]; fees: StuckFeeRefund[] }>;
}

export type Tx = Queryable;

export const iso = (ms: number) => new Date(ms).toISOString();
