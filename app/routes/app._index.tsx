// The merchant dashboard: the shop's installation, setup, metrics, protected orders, webhook endpoints, failed jobs,
// customer data requests and the e-mail snippet (app/shopify/dashboard.server.ts reads them).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Card, Page, Text } from "@shopify/polaris";
import { authenticateAdmin, shopifyRuntime } from "../shopify.server.ts";
import { loadDashboard } from "../shopify/dashboard.server.ts";
import { DashboardPage } from "../components/dashboard/DashboardPage.tsx";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await authenticateAdmin(request);
  const runtime = shopifyRuntime();
  // Nothing to show in demo mode, where the layout shows the setup page instead of this one.
  if (!admin || !runtime) return { dashboard: null };
  const dashboard = await loadDashboard(runtime.deps, admin.session.shop, { apiKey: process.env.SHOPIFY_API_KEY! });
  return { dashboard: dashboard ?? null };
}

export default function Dashboard() {
  const { dashboard } = useLoaderData<typeof loader>();
  if (dashboard) return <DashboardPage dashboard={dashboard} />;
  return (
    <Page title="Purchase Protection">
      <Card>
        <Text as="p">The app is being set up for this shop. Reload the page in a moment.</Text>
      </Card>
    </Page>
  );
}
