// customers/data_request: its job keeps an export of what we hold about the customer, for the merchant.
import { handledWebhook } from "./webhook.ts";
import type { CustomersDataRequest } from "./privacy-payloads.ts";

export const customersDataRequest = handledWebhook({
  topic: "customers/data_request",
  job: "customers/data_request",
  jobPayload: (request: CustomersDataRequest) => request,
});
