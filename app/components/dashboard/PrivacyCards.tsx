// Merchant obligations: customer data requests to answer (the export downloads through App Bridge's authenticated
// fetch) and the order-confirmation snippet to paste into Shopify's notification.
import { useState } from "react";
import { BlockStack, Button, Card, Text, TextField } from "@shopify/polaris";
import type { ShopOverview } from "../../shopify/dashboard.server.ts";
import { ListCard } from "./ActivityCards.tsx";
import { formatTime } from "./format.ts";
import { CopyButton, downloadThroughFetch } from "../../dashboard/page-parts.tsx";

export function DataRequestsCard({ requests }: { requests: ShopOverview["dataRequests"] }) {
  const [failure, setFailure] = useState<string | null>(null);
  // Embedded in the admin, App Bridge's fetch adds the session token the download route authenticates.
  const download = (id: string) =>
    downloadThroughFetch(`/app/data-requests/${encodeURIComponent(id)}`, `data-request-${id}.json`).then(setFailure);
  return (
    <ListCard
      title="Customer data requests"
      empty="No customer has asked for their data."
      columns={[
        ["Received", "text"],
        ["Customer id", "text"],
        ["Export (send it to the customer within 30 days)", "text"],
      ]}
      rows={requests.map((request) => [
        formatTime(request.createdAt),
        request.customerId,
        <Button variant="plain" onClick={() => void download(request.id)}>
          Download JSON
        </Button>,
      ])}
    >
      {failure && (
        <Text as="p" tone="critical">
          {failure}
        </Text>
      )}
    </ListCard>
  );
}

export function EmailSnippetCard({ snippet }: { snippet: string }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Order confirmation e-mail
        </Text>
        <Text as="p">
          Your order confirmation must carry the protection reference number, the disclosure, the 48-hour cancellation
          notice and the coverage link. In Shopify admin open Settings → Notifications → Order confirmation, and paste
          this snippet where the e-mail should show them.
        </Text>
        <TextField
          label="Liquid snippet"
          value={snippet}
          multiline={8}
          readOnly
          selectTextOnFocus
          autoComplete="off"
          monospaced
          helpText="Click the field to select all of it, or use Copy."
        />
        <CopyButton value={snippet} label="Copy the order confirmation e-mail's snippet" />
      </BlockStack>
    </Card>
  );
}
