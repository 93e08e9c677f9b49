// The overview in the Shopify admin: the dashboard's overview of the shop's mode, with the shop's own banners on top
// (uninstalled, failing endpoints, jobs and payouts that gave up, the storefront setup) and its setup, latest orders
// and customer data requests below (app/shopify/dashboard.server.ts reads them).
import { useLoaderData } from "@remix-run/react";
import { embeddedLoader } from "../dashboard/embedded.server.ts";
import { loadOverview, type OverviewData } from "../dashboard/pages/overview.server.ts";
import { OverviewPage } from "../dashboard/pages/OverviewPage.tsx";
import { loadShopOverview, type ShopOverview } from "../shopify/dashboard.server.ts";
import { ShopActivity, ShopAttention } from "../components/dashboard/ShopOverview.tsx";

export const loader = embeddedLoader("overview", async (context) => ({
  ...(await loadOverview(context)),
  shop: (await loadShopOverview(context.deps, context.shop, { apiKey: process.env.SHOPIFY_API_KEY ?? "" }))!,
}));

export default function AdminOverview() {
  const { shop } = useLoaderData() as unknown as OverviewData & { shop: ShopOverview };
  return <OverviewPage top={<ShopAttention overview={shop} />} bottom={<ShopActivity overview={shop} />} />;
}
