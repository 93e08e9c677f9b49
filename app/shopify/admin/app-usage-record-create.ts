// Charges a usage record on the subscription's usage line item (appUsageRecordCreate). The idempotency key names the
// statement: Shopify answers a repeated key with the record it made, so a retried job charges once.
import { adminOperation, type UserError } from "./graphql.ts";
import type { Money } from "./active-subscriptions.ts";

export interface AppUsageRecordCreateVariables {
  subscriptionLineItemId: string;
  price: Money;
  description: string;
  idempotencyKey: string;
}

export interface AppUsageRecordCreateResult {
  appUsageRecordCreate: {
    appUsageRecord: { id: string; price: Money; idempotencyKey: string | null } | null;
    userErrors: UserError[];
  };
}

export const appUsageRecordCreate = adminOperation<AppUsageRecordCreateVariables, AppUsageRecordCreateResult>(
  `mutation AppUsageRecordCreate(
    $subscriptionLineItemId: ID!
    $price: MoneyInput!
    $description: String!
    $idempotencyKey: String
  ) {
    appUsageRecordCreate(
      subscriptionLineItemId: $subscriptionLineItemId
      price: $price
      description: $description
      idempotencyKey: $idempotencyKey
    ) {
      appUsageRecord { id price { amount currencyCode } idempotencyKey }
      userErrors { field message }
    }
  }`,
);
