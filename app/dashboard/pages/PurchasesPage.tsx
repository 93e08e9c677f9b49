import { Form, useLoaderData } from "@remix-run/react";
import { Badge, Button, Card, FormLayout, IndexTable, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { Purchase } from "../../../server/index.ts";
import type { PurchasesData } from "./purchases.server.ts";
import { useDashboardHref } from "../shell-context.tsx";
import { FilterProblems, NextPage, UtcDayRangeFields } from "../page-parts.tsx";
import { formatMoney, formatTime } from "../../components/dashboard/format.ts";
import { purchaseStatusLabel } from "../labels.ts";

const STATUS_TONE: Record<Purchase["status"], "success" | "critical" | undefined> = {
  active: "success",
  voided: undefined,
  cancelled: "critical",
};

export function PurchaseStatus({ purchase }: { purchase: Purchase }) {
  return (
    <Badge tone={STATUS_TONE[purchase.status]}>{purchaseStatusLabel(purchase.status, purchase.orderStatus)}</Badge>
  );
}

export function PurchasesPage() {
  const { filters, errors, purchases, nextAfter } = useLoaderData() as unknown as PurchasesData;
  const href = useDashboardHref();
  const [values, setValues] = useState(filters);
  const set = (name: string) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  return (
    <Page title="Purchases" subtitle="Protected purchases, newest first">
      <Layout>
        <Layout.Section>
          <Card>
            <Form method="get">
              <FormLayout>
                <FormLayout.Group condensed>
                  <Select
                    label="Status"
                    name="status"
                    value={values.status}
                    onChange={set("status")}
                    error={errors.status}
                    options={[
                      { label: "Any", value: "" },
                      { label: "Active", value: "active" },
                      { label: "Voided", value: "voided" },
                      { label: "Cancelled by the buyer", value: "cancelled" },
                    ]}
                  />
                  <TextField
                    label="Order id"
                    name="orderId"
                    value={values.orderId}
                    onChange={set("orderId")}
                    error={errors.orderId}
                    autoComplete="off"
                  />
                  <TextField
                    label="Reference number"
                    name="reference"
                    value={values.reference}
                    onChange={set("reference")}
                    error={errors.reference}
                    autoComplete="off"
                  />
                </FormLayout.Group>
                <UtcDayRangeFields
                  labels={{ from: "Created from (UTC)", to: "Created to (UTC)" }}
                  values={values}
                  errors={errors}
                  onChangeOf={set}
                />
                <Button submit>Filter</Button>
              </FormLayout>
            </Form>
          </Card>
        </Layout.Section>
        <FilterProblems errors={errors} />
        <Layout.Section>
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: "purchase", plural: "purchases" }}
              itemCount={purchases.length}
              selectable={false}
              headings={[
                { title: "Reference" },
                { title: "Order" },
                { title: "Status" },
                { title: "Fee" },
                { title: "Covered" },
                { title: "Created" },
              ]}
              emptyState={<Text as="p">No protected purchases match.</Text>}
            >
              {purchases.map((purchase, index) => (
                <IndexTable.Row id={purchase.id} key={purchase.id} position={index}>
                  <IndexTable.Cell>
                    <a href={href("purchases", `/${purchase.id}`)}>{purchase.referenceNumber}</a>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{purchase.orderId}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <PurchaseStatus purchase={purchase} />
                  </IndexTable.Cell>
                  <IndexTable.Cell>{formatMoney(purchase.feeCents, purchase.currency)}</IndexTable.Cell>
                  <IndexTable.Cell>{formatMoney(purchase.coveredAmountCents, purchase.currency)}</IndexTable.Cell>
                  <IndexTable.Cell>{formatTime(purchase.createdAt)}</IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        </Layout.Section>
        <NextPage href={href("purchases")} filters={filters} after={nextAfter} label="Older purchases" />
      </Layout>
    </Page>
  );
}
