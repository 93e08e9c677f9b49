// Publishes the protection product to the given publications (the Online Store: the Ajax Cart API can add it then).
import { adminOperation, type UserError } from "./graphql.ts";

export interface PublishProtectionVariables {
  id: string;
  input: { publicationId: string }[];
}

export interface PublishProtectionResult {
  publishablePublish: { userErrors: UserError[] };
}

export const publishProtection = adminOperation<PublishProtectionVariables, PublishProtectionResult>(
  `mutation PublishProtection($id: ID!, $input: [PublicationInput!]!) {
    publishablePublish(id: $id, input: $input) { userErrors { field message } }
  }`,
);
