// Creates the app's usage-based subscription (appSubscriptionCreate): one AppUsagePricing line item with a capped
// amount and terms naming the fee share. It starts PENDING; the merchant approves it at confirmationUrl.
import { adminOperation, type UserError } from "./graphql.ts";
import { ACTIVE_SUBSCRIPTION_FIELDS, type ActiveSubscription, type Money } from "./active-subscriptions.ts";

export interface AppSubscriptionCreateVariables {
  name: string;
  lineItems: { plan: { appUsagePricingDetails: { cappedAmount: Money; terms: string } } }[];
  returnUrl: string;
  /** A development shop's subscription: Shopify charges nothing. */
  test: boolean;
}

export interface AppSubscriptionCreateResult {
  appSubscriptionCreate: {
    appSubscription: ActiveSubscription | null;
    confirmationUrl: string | null;
    userErrors: UserError[];
  };
}

export const appSubscriptionCreate = adminOperation<AppSubscriptionCreateVariables, AppSubscriptionCreateResult>(
  `mutation AppSubscriptionCreate(
    $name: String!
    $lineItems: [AppSubscriptionLineItemInput!]!
    $returnUrl: URL!
    $test: Boolean
  ) {
    appSubscriptionCreate(name: $name, lineItems: $lineItems, returnUrl: $returnUrl, test: $test) {
      appSubscription { ...ActiveSubscriptionFields }
      confirmationUrl
      userErrors { field message }
    }
  }
  ${ACTIVE_SUBSCRIPTION_FIELDS}`,
);
