import { useActionData, useLoaderData } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  Checkbox,
  InlineStack,
  Layout,
  List,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { ChecklistItemId } from "../../../server/index.ts";
import type { GoLiveData } from "./go-live.server.ts";
import { ConfirmedAction, OutcomeBanners, refusalOf, type FormOutcome } from "../page-parts.tsx";
import { DashboardForm, useAccess, useDashboardHref } from "../shell-context.tsx";
import { formatTime } from "../../components/dashboard/format.ts";
import { EmailSnippetCard } from "../../components/dashboard/PrivacyCards.tsx";

type GoLiveResult = FormOutcome;

const ITEMS: Record<ChecklistItemId, { label: string; how: string }> = {
  live_secret_key: { label: "A live secret key", how: "Mint one on API keys and put it in your server's secrets." },
  live_publishable_key: { label: "A live publishable key", how: "Mint one on API keys for the widget on your pages." },
  allowed_origins: {
    label: "Allowed origins for the live widget key",
    how: "The origins of the pages that show the widget (below). Live publishable keys work only from them.",
  },
  live_webhook_endpoint: {
    label: "A healthy live webhook endpoint (recommended)",
    how: "Create one on Webhooks in live mode, so your systems hear about claims and cancellations.",
  },
  confirmation_email: {
    label: "The order confirmation e-mail's obligations",
    how: "Confirm below that your order confirmation e-mail carries the protection notice.",
  },
};

/** In the Shopify admin the switch mints the live keys and allows the shop's origins itself. */
const AT_THE_SWITCH: Partial<Record<ChecklistItemId, string>> = {
  live_secret_key: "The app mints it when the shop goes live, and keeps it sealed for your orders.",
  live_publishable_key: "The app mints it when the shop goes live, for the theme embed and the checkout.",
  allowed_origins:
    "Your myshopify.com storefront and Shopify's checkout are added when the shop goes live. Add your own domain below if your storefront uses one.",
};

/** What the loader adds in the Shopify admin (app/routes/app.go-live.tsx). */
interface ShopGoLive {
  storefrontReady: boolean;
  shopOrigins: string[];
  emailSnippet: string;
}

export function GoLivePage() {
  const { state, portalUrl, companyName, shopify } = useLoaderData() as unknown as GoLiveData & {
    shopify?: ShopGoLive;
  };
  const ready = shopify ? shopify.storefrontReady : state.ready;
  const result = useActionData() as GoLiveResult | undefined;
  const { canChange } = useAccess();
  const href = useDashboardHref();
  const [origins, setOrigins] = useState(
    result && !result.ok && result.form === "origins" ? result.values.origins : state.allowedOrigins.join("\n"),
  );
  const [confirmed, setConfirmed] = useState(false);
  const failure = refusalOf(result);
  return (
    <Page title="Go live" subtitle={state.liveAt ? `Live since ${formatTime(state.liveAt)}` : "You are in test mode"}>
      <Layout>
        <OutcomeBanners outcome={result} />
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Checklist
              </Text>
              <ul className="checklist">
                {shopify ? (
                  <ChecklistRow
                    done={shopify.storefrontReady}
                    label="The storefront setup (the protection product and its fee tiers)"
                    how="The app creates them after install; turn the theme embed on from the overview."
                  />
                ) : null}
                {state.items.map((item) => {
                  const atTheSwitch = shopify ? AT_THE_SWITCH[item.id] : undefined;
                  return (
                    <ChecklistRow
                      key={item.id}
                      done={item.done}
                      label={ITEMS[item.id].label}
                      how={atTheSwitch ?? ITEMS[item.id].how}
                      pending={atTheSwitch ? "At the switch" : item.required ? undefined : "Recommended"}
                    />
                  );
                })}
              </ul>
              <Text as="p">
                <a href={href("keys")}>Open API keys</a>
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Allowed origins
              </Text>
              <DashboardForm>
                <input type="hidden" name="intent" value="origins" />
                <BlockStack gap="200">
                  <TextField
                    label="Origins of the pages that show the widget, one per line"
                    name="origins"
                    value={origins}
                    onChange={setOrigins}
                    multiline={3}
                    autoComplete="off"
                    placeholder="https://shop.example.com"
                    error={failure?.form === "origins" ? failure.errors.origins : undefined}
                    disabled={!canChange("goLive")}
                  />
                  {canChange("goLive") ? (
                    <InlineStack>
                      <Button submit>Save origins</Button>
                    </InlineStack>
                  ) : null}
                </BlockStack>
              </DashboardForm>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Your order confirmation e-mail
              </Text>
              <Text as="p">When a buyer chose protection, the confirmation e-mail you send must show:</Text>
              <List type="bullet">
                <List.Item>
                  the protection's reference number (referenceNumber of the confirm answer or the accepted event);
                </List.Item>
                <List.Item>
                  the disclosure text the buyer accepted, word for word, and that {companyName} provides the guarantee;
                </List.Item>
                <List.Item>that the buyer may cancel within 48 hours for a full refund of the fee;</List.Item>
                <List.Item>the link to the buyer portal: {portalUrl}.</List.Item>
              </List>
            </BlockStack>
          </Card>
        </Layout.Section>
        {shopify ? (
          <Layout.Section>
            <EmailSnippetCard snippet={shopify.emailSnippet} />
          </Layout.Section>
        ) : null}
        {state.liveAt === null && canChange("goLive") ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Switch to live
                </Text>
                <ConfirmedAction
                  action="Go live"
                  variant="primary"
                  disabled={!ready}
                  question={
                    shopify
                      ? "Go live now? From this moment the shop's orders get real protection plans and real money moves. This cannot be undone."
                      : "Go live now? From this moment your live keys work, buyers get real protection plans and real money moves. This cannot be undone."
                  }
                  confirmLabel="Yes, go live"
                >
                  <input type="hidden" name="intent" value="go-live" />
                  <Checkbox
                    label="Our order confirmation e-mail shows the reference number, the disclosure, the 48-hour cancellation and the portal link."
                    name="confirmationEmail"
                    value="yes"
                    checked={confirmed}
                    onChange={setConfirmed}
                    error={failure?.form === "go-live" ? failure.errors.confirmationEmail : undefined}
                  />
                </ConfirmedAction>
                {!ready ? (
                  <Text as="p" tone="subdued">
                    Finish the required items of the checklist first.
                  </Text>
                ) : null}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}

function ChecklistRow({ done, label, how, pending }: { done: boolean; label: string; how: string; pending?: string }) {
  return (
    <li>
      <InlineStack gap="200" blockAlign="center">
        {done ? (
          <Badge tone="success">Done</Badge>
        ) : (
          <Badge tone={pending ? "info" : "attention"}>{pending ?? "To do"}</Badge>
        )}
        <Text as="span" fontWeight="semibold">
          {label}
        </Text>
      </InlineStack>
      <Text as="p" tone="subdued">
        {how}
      </Text>
    </li>
  );
}
