// The app's active subscriptions on the shop (currentAppInstallation.activeSubscriptions) with each usage line item's
// capped amount and balance used this billing cycle, and what a new subscription needs to know of the shop: its
// currency, and whether it is a development shop (whose subscriptions are test ones).
import { adminOperation } from "./graphql.ts";

export interface Money {
  amount: string;
  currencyCode: string;
}

/** A line item; its pricing details are AppUsagePricing for the usage line (others carry only __typename). */
export interface UsageLineItem {
  id: string;
  plan: {
    pricingDetails:
      | { __typename: "AppUsagePricing"; cappedAmount: Money; balanceUsed: Money; terms: string }
      | { __typename: "AppRecurringPricing" };
  };
}

export interface ActiveSubscription {
  id: string;
  status: string;
  test: boolean;
  lineItems: UsageLineItem[];
}

export interface ActiveSubscriptionsResult {
  currentAppInstallation: { activeSubscriptions: ActiveSubscription[] };
  shop: { currencyCode: string; plan: { partnerDevelopment: boolean } };
}

/** What the app reads of a subscription (ActiveSubscription), here and where it creates one; after the operation. */
export const ACTIVE_SUBSCRIPTION_FIELDS = `fragment ActiveSubscriptionFields on AppSubscription {
    id
    status
    test
    lineItems {
      id
      plan {
        pricingDetails {
          __typename
          ... on AppUsagePricing { cappedAmount { amount currencyCode } balanceUsed { amount currencyCode } terms }
        }
      }
    }
  }`;

export const activeSubscriptions = adminOperation<void, ActiveSubscriptionsResult>(
  `query ActiveSubscriptions {
    currentAppInstallation {
      activeSubscriptions { ...ActiveSubscriptionFields }
    }
    shop { currencyCode plan { partnerDevelopment } }
  }
  ${ACTIVE_SUBSCRIPTION_FIELDS}`,
);
