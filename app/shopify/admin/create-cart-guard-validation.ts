// Installs the card-testing guard's Function on the shop as a validation (validationCreate, by the Function's handle).
import { adminOperation, type UserError } from "./graphql.ts";

export interface ValidationCreateInput {
  functionHandle: string;
  title: string;
  enable: boolean;
  blockOnFailure: boolean;
}

export interface CreateCartGuardValidationResult {
  validationCreate: { validation: { id: string } | null; userErrors: UserError[] };
}

export const createCartGuardValidation = adminOperation<
  { validation: ValidationCreateInput },
  CreateCartGuardValidationResult
>(
  `mutation CreateCartGuardValidation($validation: ValidationCreateInput!) {
    validationCreate(validation: $validation) { validation { id } userErrors { field message code } }
  }`,
);
