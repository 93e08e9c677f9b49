import { useActionData, useLoaderData } from "@remix-run/react";
import {
  Banner,
  BlockStack,
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

export function RefundsPage() {
  const { refunded } = useLoaderData() as unknown as RefundsData;
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
