// What the dashboard's and the claims console's error boundaries say of a refused or failed page: its status, and for
// a client's mistake the refusal's own sentence; never the framework's developer page or a server error's details.
import { isRouteErrorResponse } from "@remix-run/react";

/** A route error (useRouteError) → its status and the sentence a person reads. */
export function routeErrorText(error: unknown): { status: number; sentence: string } {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const sentence =
    isRouteErrorResponse(error) && typeof error.data === "string" && status < 500
      ? error.data
      : status === 404
        ? "There is no such page."
        : "Something went wrong on our side. Try again in a moment.";
  return { status, sentence };
}
