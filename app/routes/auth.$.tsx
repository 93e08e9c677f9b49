// Shopify's auth paths (/auth/*): authenticate.admin runs the OAuth / token-exchange steps. In demo mode there is
// no app to authenticate against, so the admin's setup page explains what to configure instead.
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { authenticateAdmin, isDemoMode } from "../shopify.server.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  if (isDemoMode()) return redirect("/app");
  await authenticateAdmin(request);
  return null;
}
