// What cannot be undone (revoke a key, delete a webhook endpoint, go live) is done only by a POST from the page's
// confirmation step, which alone sends the confirmation field: any other POST — a stray script, a replayed form, a
// client without the step — changes nothing and is told why.
import { json, type TypedResponse } from "@remix-run/node";
import type { ActionFailure } from "../form-actions.server.ts";
import { field } from "../form-actions.server.ts";
import { CONFIRM_FIELD, CONFIRM_VALUE } from "./confirmation.ts";

/** Undefined when the form carries the confirmation; else the refusal to answer (400), naming what was not done. */
export function unconfirmed(
  form: FormData,
  formName: string,
  notDone: string,
): TypedResponse<ActionFailure> | undefined {
  if (field(form, CONFIRM_FIELD) === CONFIRM_VALUE) return undefined;
  return json(
    {
      errors: {},
      formError: `${notDone} Confirm it on the page first: this request did not.`,
      form: formName,
      values: {},
    },
    400,
  );
}
