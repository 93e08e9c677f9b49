// Shopify's Billing API, faked from its documented shapes for the fake Admin API (test/support/shopify.ts): app
// subscriptions per shop with one usage line each (capped amount, balance used this cycle, terms), created PENDING
// with a confirmation URL the merchant approves; usage records (a repeated idempotency key answers the record it
// made; a charge past the cap, on a subscription not active, or in another currency is a userError); a raised cap
// that applies once approved; and the app_subscriptions/update payload Shopify sends on each change. Also the live
// statements the charges are for, closed by the settlements worker's own function.
import type { AdminCall } from "./shopify.ts";
import type { ActiveSubscriptionsResult, Money } from "../../app/shopify/admin/active-subscriptions.ts";
import type {
  AppSubscriptionCreateResult,
  AppSubscriptionCreateVariables,
} from "../../app/shopify/admin/app-subscription-create.ts";
import type {
  AppUsageRecordCreateResult,
  AppUsageRecordCreateVariables,
} from "../../app/shopify/admin/app-usage-record-create.ts";
import type { AppSubscriptionLineItemUpdateResult } from "../../app/shopify/admin/app-subscription-line-item-update.ts";
import type { AppSubscriptionsUpdate } from "../../app/shopify/webhooks/app-subscriptions-update.ts";
import { randomUUID } from "node:crypto";
import type { Database, Services } from "../../server/index.ts";
import type { SubscriptionStatus } from "../../app/shopify/store/billing.ts";
import { closeEndedPeriods } from "../../server/domain/settlements.ts";
import { createProgram } from "../../server/domain/programs.ts";
import { insertLedgerEntries } from "../../server/store/ledger.ts";

export interface FakeSubscription {
  id: string;
  shop: string;
  name: string;
  status: SubscriptionStatus;
  test: boolean;
  returnUrl: string;
  confirmationUrl: string;
  line: { id: string; cappedCents: number; balanceUsedCents: number; currency: string; terms: string };
  /** A raised cap awaiting the merchant's approval, with its confirmation URL. */
  pendingCap: { cents: number; confirmationUrl: string } | null;
}

export interface FakeUsageRecord {
  id: string;
  lineItemId: string;
  price: Money;
  description: string;
  idempotencyKey: string | null;
  test: boolean;
}

const cents = (amount: string) => Math.round(Number(amount) * 100);
const money = (amountCents: number, currencyCode: string): Money => ({
  amount: (amountCents / 100).toFixed(2),
  currencyCode,
});

export function fakeBilling(gid: (type: string) => string) {
  const subscriptions: FakeSubscription[] = [];
  const usageRecords: FakeUsageRecord[] = [];
  const shops = new Map<string, { currencyCode: string; partnerDevelopment: boolean }>();
  const shopOf = (shop: string) => shops.get(shop) ?? { currencyCode: "USD", partnerDevelopment: false };

  const lineItemOf = (subscription: FakeSubscription) => ({
    id: subscription.line.id,
    plan: {
      pricingDetails: {
        __typename: "AppUsagePricing" as const,
        cappedAmount: money(subscription.line.cappedCents, subscription.line.currency),
        balanceUsed: money(subscription.line.balanceUsedCents, subscription.line.currency),
        terms: subscription.line.terms,
      },
    },
  });

  function create(shop: string, v: AppSubscriptionCreateVariables): AppSubscriptionCreateResult {
    const refused = (field: string[], message: string): AppSubscriptionCreateResult => ({
      appSubscriptionCreate: { appSubscription: null, confirmationUrl: null, userErrors: [{ field, message }] },
    });
    const usage = v.lineItems.map((item) => item.plan.appUsagePricingDetails).filter(Boolean);
    if (usage.length !== 1) return refused(["lineItems"], "Exactly one usage line item is supported");
    const [{ cappedAmount, terms }] = usage;
    if (!terms) return refused(["lineItems", "0", "plan", "appUsagePricingDetails", "terms"], "Terms can't be blank");
    if (!(cents(cappedAmount.amount) > 0))
      return refused(
        ["lineItems", "0", "plan", "appUsagePricingDetails", "cappedAmount"],
        "Capped amount must be positive",
      );
    const id = gid("AppSubscription");
    const subscription: FakeSubscription = {
      id,
      shop,
      name: v.name,
      status: "PENDING",
      test: v.test,
      returnUrl: v.returnUrl,
      confirmationUrl: `https://${shop}/admin/charges/${id.split("/").pop()}/confirm_recurring_application_charge`,
      line: {
        id: gid("AppSubscriptionLineItem"),
        cappedCents: cents(cappedAmount.amount),
        balanceUsedCents: 0,
        currency: cappedAmount.currencyCode,
        terms,
      },
      pendingCap: null,
    };
    subscriptions.push(subscription);
    return {
      appSubscriptionCreate: {
        appSubscription: { id, status: "PENDING", test: v.test, lineItems: [lineItemOf(subscription)] },
        confirmationUrl: subscription.confirmationUrl,
        userErrors: [],
      },
    };
  }

  function charge(v: AppUsageRecordCreateVariables): AppUsageRecordCreateResult {
    const refused = (field: string[], message: string): AppUsageRecordCreateResult => ({
      appUsageRecordCreate: { appUsageRecord: null, userErrors: [{ field, message }] },
    });
    const subscription = subscriptions.find((candidate) => candidate.line.id === v.subscriptionLineItemId);
    if (!subscription) return refused(["subscriptionLineItemId"], "Subscription line item not found");
    const earlier = usageRecords.find(
      (record) => record.lineItemId === v.subscriptionLineItemId && record.idempotencyKey === v.idempotencyKey,
    );
    if (v.idempotencyKey && earlier)
      return {
        appUsageRecordCreate: {
          appUsageRecord: { id: earlier.id, price: earlier.price, idempotencyKey: earlier.idempotencyKey },
          userErrors: [],
        },
      };
    if (subscription.status !== "ACTIVE") return refused(["subscriptionLineItemId"], "Subscription is not active");
    if (v.price.currencyCode !== subscription.line.currency)
      return refused(["price"], "Currency must match the capped amount's currency");
    const amount = cents(v.price.amount);
    if (subscription.line.balanceUsedCents + amount > subscription.line.cappedCents)
      return refused(["price"], "Total price exceeds balance remaining");
    subscription.line.balanceUsedCents += amount;
    const record: FakeUsageRecord = {
      id: gid("AppUsageRecord"),
      lineItemId: v.subscriptionLineItemId,
      price: v.price,
      description: v.description,
      idempotencyKey: v.idempotencyKey ?? null,
      test: subscription.test,
    };
    usageRecords.push(record);
    return {
      appUsageRecordCreate: {
        appUsageRecord: { id: record.id, price: record.price, idempotencyKey: record.idempotencyKey },
        userErrors: [],
      },
    };
  }

  function raiseCap(v: { id: string; cappedAmount: Money }): AppSubscriptionLineItemUpdateResult {
    const refused = (field: string[], message: string): AppSubscriptionLineItemUpdateResult => ({
      appSubscriptionLineItemUpdate: { appSubscription: null, confirmationUrl: null, userErrors: [{ field, message }] },
    });
    const subscription = subscriptions.find((candidate) => candidate.line.id === v.id);
    if (!subscription) return refused(["id"], "Subscription line item not found");
    if (cents(v.cappedAmount.amount) <= subscription.line.cappedCents)
      return refused(["cappedAmount"], "The capped amount must be greater than the current capped amount");
    const confirmationUrl = `https://${subscription.shop}/admin/charges/${subscription.id.split("/").pop()}/confirm_update_capped_amount`;
    subscription.pendingCap = { cents: cents(v.cappedAmount.amount), confirmationUrl };
    return {
      appSubscriptionLineItemUpdate: { appSubscription: { id: subscription.id }, confirmationUrl, userErrors: [] },
    };
  }

  const byUrl = (confirmationUrl: string) =>
    subscriptions.find(
      (candidate) =>
        candidate.confirmationUrl === confirmationUrl || candidate.pendingCap?.confirmationUrl === confirmationUrl,
    );

  return {
    subscriptions,
    usageRecords,
    /** The shop's currency and whether it is a development store (its subscriptions must be test ones). */
    setShop(shop: string, info: { currencyCode?: string; partnerDevelopment?: boolean }) {
      shops.set(shop, { ...shopOf(shop), ...info });
    },
    answer(call: AdminCall): unknown {
      switch (call.operationName) {
        case "ActiveSubscriptions":
          return {
            currentAppInstallation: {
              activeSubscriptions: subscriptions
                .filter((subscription) => subscription.shop === call.shop && subscription.status === "ACTIVE")
                .map((subscription) => ({
                  id: subscription.id,
                  status: subscription.status,
                  test: subscription.test,
                  lineItems: [lineItemOf(subscription)],
                })),
            },
            shop: {
              currencyCode: shopOf(call.shop).currencyCode,
              plan: { partnerDevelopment: shopOf(call.shop).partnerDevelopment },
            },
          } satisfies ActiveSubscriptionsResult;
        case "AppSubscriptionCreate":
          return create(call.shop, call.variables as unknown as AppSubscriptionCreateVariables);
        case "AppUsageRecordCreate":
          return charge(call.variables as unknown as AppUsageRecordCreateVariables);
        case "AppSubscriptionLineItemUpdate":
          return raiseCap(call.variables as unknown as { id: string; cappedAmount: Money });
        default:
          return undefined;
      }
    },
    /**
     * The merchant approves at a confirmation URL: a pending subscription becomes ACTIVE (Shopify cancels the shop's
     * other active one of the app), a pending raise applies its cap. Returns the subscription.
     */
    approve(confirmationUrl: string): FakeSubscription {
      const subscription = byUrl(confirmationUrl);
      if (!subscription) throw new Error(`no charge awaits approval at ${confirmationUrl}`);
      if (subscription.pendingCap?.confirmationUrl === confirmationUrl) {
        subscription.line.cappedCents = subscription.pendingCap.cents;
        subscription.pendingCap = null;
        return subscription;
      }
      for (const other of subscriptions)
        if (other.shop === subscription.shop && other.status === "ACTIVE") other.status = "CANCELLED";
      subscription.status = "ACTIVE";
      return subscription;
    },
    /** A new 30-day billing cycle begins: the usage line's balance used is back to zero. */
    newCycle(id: string): FakeSubscription {
      const subscription = subscriptions.find((candidate) => candidate.id === id)!;
      subscription.line.balanceUsedCents = 0;
      return subscription;
    },
    /** The subscription's status changes on Shopify's side (the merchant cancels, a store is frozen…). */
    setStatus(id: string, status: SubscriptionStatus): FakeSubscription {
      const subscription = subscriptions.find((candidate) => candidate.id === id)!;
      subscription.status = status;
      return subscription;
    },
  };
}

/** The app_subscriptions/update payload Shopify sends for the subscription as it stands. */
export const appSubscriptionsUpdatePayload = (subscription: FakeSubscription): AppSubscriptionsUpdate => ({
  app_subscription: {
    admin_graphql_api_id: subscription.id,
    name: subscription.name,
    status: subscription.status,
    admin_graphql_api_shop_id: "gid://shopify/Shop/7",
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    currency: subscription.line.currency,
    capped_amount: (subscription.line.cappedCents / 100).toFixed(2),
  },
});

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

/**
 * One closed live statement of the merchant: ledger entries (a signed amount each: negative a fee collected for us,
 * positive a claim reimbursed) stamped in the week starting `weekStart`, closed by the settlements worker's own
 * function with a clock past that week's end (it closes what has ended by its clock). Resolves to the statement's id.
 */
export async function closeLiveWeek(
  db: Database,
  services: Services,
  input: { merchantId: string; weekStart: number; amountsCents: number[] },
): Promise<string> {
  await insertLedgerEntries(
    db,
    input.amountsCents.map((amountCents) => ({
      id: `le_${randomUUID()}`,
      merchantId: input.merchantId,
      mode: "live",
      currency: "USD",
      kind: amountCents < 0 ? "fee_collected" : "claim_reimbursement",
      amountCents,
      sourceId: randomUUID(),
      planId: null,
      createdAt: input.weekStart + HOUR_MS,
    })),
  );
  await closeEndedPeriods(db, { ...services, clock: () => input.weekStart + WEEK_MS + DAY_MS });
  const latest = await db.get<{ id: string }>(
    "SELECT id FROM settlement_statements WHERE merchant_id = ? AND mode = 'live' ORDER BY period_start DESC LIMIT 1",
    [input.merchantId],
  );
  return latest!.id;
}

/**
 * The shop in live mode on a live program, its merchant live (going live itself, with its checklist, is
 * test/app/embedded-dashboard.test.ts' subject): the dashboard then shows the live statements.
 */
export async function makeShopLive(db: Database, services: Services, shop: string, merchantId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const liveProgramId = await createProgram(tx, services, { merchantId, mode: "live" });
    // A new version, as every write of the row makes (app/shopify/store/shops.ts): the app's kept copy is read again.
    await tx.run("UPDATE shop_installations SET mode = 'live', program_id = ?, version = ? WHERE shop = ?", [
      liveProgramId,
      randomUUID(),
      shop,
    ]);
    await tx.run("UPDATE merchants SET live_at = ? WHERE id = ?", [Date.now(), merchantId]);
  });
}
