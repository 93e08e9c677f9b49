// Creates the replacement of an approved claim as a draft order (draftOrderCreate): the original order's goods lines,
// to the buyer's e-mail and shipping address, discounted 100 %, tagged with the claim's id.
import { adminOperation, type UserError } from "./graphql.ts";
import type { ClaimReplacementDraft } from "./claim-replacement-drafts.ts";

/** Shopify's MailingAddressInput (countryCode: ISO 3166-1 alpha-2). */
export interface MailingAddressInput {
  firstName?: string;
  lastName?: string;
  company?: string;
  address1?: string;
  address2?: string;
  city?: string;
  provinceCode?: string;
  countryCode?: string;
  zip?: string;
  phone?: string;
}

export interface DraftOrderInput {
  email?: string;
  shippingAddress?: MailingAddressInput;
  lineItems: { variantId: string; quantity: number }[];
  appliedDiscount: { value: number; valueType: "PERCENTAGE" | "FIXED_AMOUNT"; title?: string; description?: string };
  tags: string[];
  note?: string;
}

export interface CreateClaimReplacementResult {
  draftOrderCreate: { draftOrder: ClaimReplacementDraft | null; userErrors: UserError[] };
}

export const createClaimReplacement = adminOperation<{ input: DraftOrderInput }, CreateClaimReplacementResult>(
  `mutation CreateClaimReplacement($input: DraftOrderInput!) {
    draftOrderCreate(input: $input) {
      draftOrder { id status tags order { id } }
      userErrors { field message }
    }
  }`,
);
