// Turning the portal's multipart forms into the portal API's: the buyer's fields checked for presence here (so a
// missing field is named next to it without a round trip), the evidence files passed on as they came (the API
// recognises them by their bytes), and the API's refusals placed next to the field its `param` names.
import type { ApiResult } from "./buyer.server.ts";
import { errorSentence, type PortalText } from "./messages.ts";
import type { FieldErrors } from "../ui/form-parts.tsx";

/** The page's field id for each API parameter. */
const FIELD_OF_PARAM: Record<string, string> = {
  reason: "reason",
  occurredAt: "occurredAt",
  description: "description",
  amountCents: "amount",
  evidence: "evidence",
  message: "message",
};

/** The files the buyer chose; an empty file input still posts one nameless empty part, which is no file. */
export function chosenFiles(form: FormData, field: string): File[] {
  return form
    .getAll(field)
    .filter((value): value is File => typeof value !== "string" && !(value.size === 0 && !value.name));
}

/** An API failure as the page shows it: next to its field when the API named one, else above the form. */
export function placeFailure(
  failure: Extract<ApiResult<unknown>, { ok: false }>,
  t: PortalText,
): {
  errors: FieldErrors;
  formError?: string;
} {
  const sentence = errorSentence(failure.error, failure.status, failure.retryAfterSeconds, t);
  const param = failure.error.param?.split(/[.[]/)[0];
  const field = param ? FIELD_OF_PARAM[param] : undefined;
  if (field && failure.status !== 429) return { errors: { [field]: sentence } };
  if (failure.error.code.startsWith("evidence_") || failure.error.code === "too_many_evidence_files")
    return { errors: { evidence: sentence } };
  return { errors: {}, formError: sentence };
}
