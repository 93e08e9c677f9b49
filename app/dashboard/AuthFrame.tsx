// The pages before signing in (sign up, sign in, a sign-in link): Polaris on a narrow page, outside the dashboard's
// authenticated layout.
import type { ReactNode } from "react";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { Banner, BlockStack, Card, Page, Text } from "@shopify/polaris";

export function AuthFrame({
  title,
  notice,
  formError,
  children,
}: {
  title: string;
  notice?: string;
  formError?: string;
  children: ReactNode;
}) {
  return (
    <AppProvider isEmbeddedApp={false} apiKey="">
      <main id="main">
        <Page narrowWidth title={title}>
          <BlockStack gap="400">
            {notice ? (
              <Banner tone="success">
                <p role="status">{notice}</p>
              </Banner>
            ) : null}
            {formError ? (
              <Banner tone="critical">
                <p role="alert">{formError}</p>
              </Banner>
            ) : null}
            <Card>
              <BlockStack gap="400">{children}</BlockStack>
            </Card>
            <Text as="p" tone="subdued">
              Purchase Protection: a contractual refund guarantee for your buyers, not insurance.
            </Text>
          </BlockStack>
        </Page>
      </main>
    </AppProvider>
  );
}
