// How a form's POST comes back when the core refuses it, for every page with forms (the claims console, the merchant
// dashboard): a DomainError becomes the form's error, next to its field when the core named one, with the HTTP status
// of its kind; anything else is a bug and propagates.
import { json, type TypedResponse } from "@remix-run/node";
import { DomainError } from "../server/index.ts";
import { refusal } from "./form.server.ts";

import type { FieldErrors } from "./ui/form-parts.tsx";
import { isHttps } from "./request-scheme.server.ts";

export interface ActionFailure {
  errors: FieldErrors;
  formError?: string;
  /** Which of the page's forms failed (several forms share one action). */
  form: string;
  /** What was typed, shown again. */
  values: Record<string, string>;
}

const STATUS_OF_KIND: Record<DomainError["kind"], number> = {
  invalid: 400,
  unprocessable: 422,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  order_context_invalid: 400,
};

/**
 * Runs a page's load or action; a refusal of the core it did not make a form's error (an unknown or another merchant's
 * id: not_found) is answered with its kind's status and its sentence as plain text, not logged as a 500.
 */
export async function answeringRefusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw refusal(STATUS_OF_KIND[error.kind], error.message);
    throw error;
  }
}

/**
 * Runs an action's work; a refusal of the core (a DomainError) comes back as the form's error, next to its field
 * when the core named one the form has (`fieldIds` maps the core's field names to the form's element ids).
 */
export async function formAction<T>(
  form: string,
  fieldIds: Record<string, string>,
  work: () => Promise<T>,
  values: Record<string, string> = {},
): Promise<{ ok: true; value: T } | { ok: false; response: TypedResponse<ActionFailure> }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const id = error.field === undefined ? undefined : fieldIds[error.field.split(".")[0]];
    const failure: ActionFailure = id
      ? { errors: { [id]: error.message }, form, values }
      : { errors: {}, formError: error.message, form, values };
    return { ok: false, response: json(failure, STATUS_OF_KIND[error.kind]) };
  }
}

/** A form field as text ("" when absent or a file). */
export const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** This server's origin as the browser sees it (https behind a TLS-terminating proxy that says so). */
function ownOrigin(request: Request): string {
  const url = new URL(request.url);
  return `${isHttps(request) ? "https:" : url.protocol}//${url.host}`;
}

/**
 * Refuses (throws 403, naming `what`) a POST that did not come from a page of this origin or of `alsoAllowed` (the
 * configured public origin). Browsers send Origin on every POST; a request without one is accepted only when Fetch
 * Metadata says it is same-origin.
 */
export function checkSameOrigin(request: Request, alsoAllowed: string[], what: string): void {
  const origin = request.headers.get("Origin");
  const sameOrigin =
    origin === null
      ? request.headers.get("Sec-Fetch-Site") === "same-origin"
      : [ownOrigin(request), ...alsoAllowed].includes(origin);
  if (!sameOrigin) throw new Response(`Forbidden: ${what}.`, { status: 403 });
}
