// customers/redact: its job removes the customer's personal data.
import { handledWebhook } from "./webhook.ts";
import type { CustomersRedact } from "./privacy-payloads.ts";

export const customersRedact = handledWebhook({
  topic: "customers/redact",
  job: "customers/redact",
  jobPayload: (request: CustomersRedact) => request,
});
