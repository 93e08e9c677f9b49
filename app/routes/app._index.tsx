import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Page, Text } from "@shopify/polaris";
import { authenticateAdmin } from "../shopify.server.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  // null in demo mode, where the layout shows the setup page instead of this one.
  const admin = await authenticateAdmin(request);
  return { shop: admin?.session.shop ?? null };
}

export default function Dashboard() {
  const { shop } = useLoaderData<typeof loader>();
  return (
    <Page title="Purchase Protection">
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            Connected{shop ? ` to ${shop}` : ""}
          </Text>
          <p>Buyers can opt in to protection from the theme embed or the checkout; confirmed plans, orders and claims will show here.</p>
        </BlockStack>
      </Card>
    </Page>
  );
}
