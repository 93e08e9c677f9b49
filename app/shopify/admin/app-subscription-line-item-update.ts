// Asks to raise the usage line item's capped amount (appSubscriptionLineItemUpdate); the merchant approves the new
// cap at confirmationUrl, and it applies once approved.
import { adminOperation, type UserError } from "./graphql.ts";
import type { Money } from "./active-subscriptions.ts";

export interface AppSubscriptionLineItemUpdateResult {
  appSubscriptionLineItemUpdate: {
    appSubscription: { id: string } | null;
    confirmationUrl: string | null;
    userErrors: UserError[];
  };
}

export const appSubscriptionLineItemUpdate = adminOperation<
  { id: string; cappedAmount: Money },
  AppSubscriptionLineItemUpdateResult
>(
  `mutation AppSubscriptionLineItemUpdate($id: ID!, $cappedAmount: MoneyInput!) {
    appSubscriptionLineItemUpdate(id: $id, cappedAmount: $cappedAmount) {
      appSubscription { id }
      confirmationUrl
      userErrors { field message }
    }
  }`,
);
