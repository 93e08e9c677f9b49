import { useActionData, useLoaderData } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  FormLayout,
  IndexTable,
  Layout,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { MerchantRefund } from "../../../server/index.ts";
import type { RefundsData } from "./refunds.server.ts";
import { OutcomeBanners, refusalOf, type FormOutcome } from "../page-parts.tsx";
import { DashboardForm, useAccess, useDashboardHref } from "../shell-context.tsx";
import { formatMoney, formatTime } from "../../components/dashboard/format.ts";

type RefundResult = FormOutcome<{ refund: MerchantRefund }>;

/**
 * Protection fees owed back after free-look cancellations (other carts; a Shopify shop's are refunded by the app):
 * each is refunded through the merchant's cart and confirmed on its purchase's page.
 */
function FeeRefundsOwed({ owed }: { owed: RefundsData["feeRefundsOwed"] }) {
  const href = useDashboardHref();
  return (
    <Card padding="0">
      <BlockStack gap="0">
        <Box padding="400">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd" id="fee-refunds">
              {`Protection fees to refund (${owed.count})`}
            </Text>
            <Text as="p" tone="subdued">
              Buyers who cancelled within the free look get the protection fee back. Refund it through your cart, then
              confirm it on the purchase.
            </Text>
          </BlockStack>
        </Box>
        <IndexTable
          resourceName={{ singular: "fee refund", plural: "fee refunds" }}
          itemCount={owed.items.length}
          selectable={false}
          headings={[{ title: "Reference" }, { title: "Order" }, { title: "Fee" }, { title: "Cancelled" }]}
          emptyState={
            <Box padding="400">
              <Text as="p">No protection fee to refund.</Text>
            </Box>
          }
        >
          {owed.items.map((refund, index) => (
            <IndexTable.Row id={refund.planId} key={refund.planId} position={index}>
              <IndexTable.Cell>
                <a href={href("purchases", `/${refund.planId}`)}>{`Confirm ${refund.referenceNumber}`}</a>
              </IndexTable.Cell>
              <IndexTable.Cell>{refund.orderId}</IndexTable.Cell>
              <IndexTable.Cell>{formatMoney(refund.amountCents, refund.currency)}</IndexTable.Cell>
              <IndexTable.Cell>{formatTime(refund.cancelledAt)}</IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </BlockStack>
    </Card>
  );
}

export function RefundsPage() {
  const { refunded, feeRefundsOwed } = useLoaderData() as unknown as RefundsData;
  const result = useActionData() as RefundResult | undefined;
  const { canChange } = useAccess();
  const href = useDashboardHref();
  const failure = refusalOf(result);
  const [orderId, setOrderId] = useState(failure?.values.orderId ?? "");
  return (
    <Page title="Refunds" subtitle="Report a refund you issued for a protected order">
      <Layout>
        {result?.ok ? (
          <Layout.Section>
            <Banner tone="success" title={`Order ${result.refund.orderId} is reported as refunded`}>
              <p role="status">
                {`Its protection is void, and your fee share of ${formatMoney(result.refund.settlementCredit.amountCents, result.refund.settlementCredit.currency)} is credited on your next settlement statement. The buyer gets no second refund from us.`}
              </p>
            </Banner>
          </Layout.Section>
        ) : null}
        <OutcomeBanners outcome={result} />
        <Layout.Section>
          <FeeRefundsOwed owed={feeRefundsOwed} />
        </Layout.Section>
        {canChange("refunds") ? (
          <Layout.Section>
            <Card>
              <DashboardForm>
                <FormLayout>
                  <TextField
                    label="Order id"
                    name="orderId"
                    value={orderId}
                    onChange={setOrderId}
                    autoComplete="off"
                    helpText="The order id your checkout sent with the quote."
                    error={failure?.errors.orderId}
                  />
                  <Button submit variant="primary">
                    Report the refund
                  </Button>
                </FormLayout>
              </DashboardForm>
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: "refund", plural: "refunds" }}
              itemCount={refunded.length}
              selectable={false}
              headings={[{ title: "Order" }, { title: "Reference" }, { title: "Fee" }, { title: "Reported" }]}
              emptyState={
                <BlockStack>
                  <Text as="p">No refunds reported yet.</Text>
                </BlockStack>
              }
            >
              {refunded.map((purchase, index) => (
                <IndexTable.Row id={purchase.id} key={purchase.id} position={index}>
                  <IndexTable.Cell>{purchase.orderId}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <a href={href("purchases", `/${purchase.id}`)}>{purchase.referenceNumber}</a>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{formatMoney(purchase.feeCents, purchase.currency)}</IndexTable.Cell>
                  <IndexTable.Cell>{purchase.voidedAt ? formatTime(purchase.voidedAt) : "—"}</IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
