// The overview in the Shopify admin: the dashboard's overview of the shop's mode, with the shop's own banners on top
// (the app's usage charges, uninstalled, failing endpoints, jobs and payouts that gave up, the storefront setup) and its
// setup, latest orders and customer data requests below (app/shopify/dashboard.server.ts reads them). Its actions ask
// Shopify for what the merchant then approves: a new usage subscription, a raised cap (app/shopify/billing.server.ts).
import { useLoaderData } from "@remix-run/react";
import { BlockStack } from "@shopify/polaris";
import { DomainError } from "../../server/index.ts";
import { embeddedAction, embeddedLoader } from "../dashboard/embedded.server.ts";
import { field } from "../form-actions.server.ts";
import { loadOverview, type OverviewData } from "../dashboard/pages/overview.server.ts";
import { OverviewPage } from "../dashboard/pages/OverviewPage.tsx";
import { loadShopOverview, type ShopOverview } from "../shopify/dashboard.server.ts";
import { ensureSubscription, requestCapRaise } from "../shopify/billing.server.ts";
import { ShopActivity, ShopAttention } from "../components/dashboard/ShopOverview.tsx";
import { BillingBanner } from "../components/dashboard/BillingBanner.tsx";

export const loader = embeddedLoader("overview", async (context) => ({
  ...(await loadOverview(context)),
  shop: (await loadShopOverview(context.deps, context.shop, { apiKey: process.env.SHOPIFY_API_KEY ?? "" }))!,
}));

/** The merchant asks for a new subscription or a raised cap; the page then shows where to approve it. */
export const action = embeddedAction("overview", async ({ deps, shop, form }) => {
  const intent = field(form, "intent");
  if (intent === "billing-subscribe") return { subscribed: (await ensureSubscription(deps, shop)) !== undefined };
  if (intent === "billing-raise-cap") {
    if ((await requestCapRaise(deps, shop)) === undefined)
      throw new DomainError("conflict", "nothing_waiting", "No charge is waiting for a higher cap.");
    return { capRaiseRequested: true };
  }
  throw new DomainError("invalid", "parameter_invalid", "Unknown action.", "intent");
});

export default function AdminOverview() {
  const { shop } = useLoaderData() as unknown as OverviewData & { shop: ShopOverview };
  return (
    <OverviewPage
      top={
        <BlockStack gap="300">
          <BillingBanner billing={shop.billing} />
          <ShopAttention overview={shop} />
        </BlockStack>
      }
      bottom={<ShopActivity overview={shop} />}
    />
  );
}
