import { Form, useLoaderData } from "@remix-run/react";
import { Badge, Button, Card, FormLayout, IndexTable, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { ClaimsData } from "./claims.server.ts";
import { useDashboardHref } from "../shell-context.tsx";
import { FilterProblems, NextPage } from "../page-parts.tsx";
import { formatMoney, formatTime } from "../../components/dashboard/format.ts";
import { claimStatusLabel, reasonLabel } from "../labels.ts";

export function ClaimsPage() {
  const { filters, errors, statuses, claims, nextAfter, reasonNames } = useLoaderData() as unknown as ClaimsData;
  const href = useDashboardHref();
  const [status, setStatus] = useState(filters.status);
  const [reference, setReference] = useState(filters.reference);
  return (
    <Page title="Claims" subtitle="Your buyers' refund requests, newest first">
      <Layout>
        <Layout.Section>
          <Card>
            <Form method="get">
              <FormLayout>
                <FormLayout.Group condensed>
                  <Select
                    label="Status"
                    name="status"
                    value={status}
                    onChange={setStatus}
                    error={errors.status}
                    options={[
                      { label: "Any", value: "" },
                      ...statuses.map((value) => ({ label: claimStatusLabel(value), value })),
                    ]}
                  />
                  <TextField
                    label="Reference number"
                    name="reference"
                    value={reference}
                    onChange={setReference}
                    error={errors.reference}
                    autoComplete="off"
                  />
                </FormLayout.Group>
                <Button submit>Filter</Button>
              </FormLayout>
            </Form>
          </Card>
        </Layout.Section>
        <FilterProblems errors={errors} />
        <Layout.Section>
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: "claim", plural: "claims" }}
              itemCount={claims.length}
              selectable={false}
              headings={[
                { title: "Reference" },
                { title: "Reason" },
                { title: "Status" },
                { title: "Amount" },
                { title: "Evidence" },
                { title: "Filed" },
              ]}
              emptyState={<Text as="p">No claims match.</Text>}
            >
              {claims.map((claim, index) => (
                <IndexTable.Row id={claim.id} key={claim.id} position={index}>
                  <IndexTable.Cell>
                    <a href={href("claims", `/${claim.id}`)}>{claim.title}</a>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{reasonLabel(reasonNames, claim.reason)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge
                      tone={claim.status === "paid" ? "success" : claim.status === "denied" ? "critical" : "attention"}
                    >
                      {claimStatusLabel(claim.status)}
                    </Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{formatMoney(claim.amountCents, claim.currency)}</IndexTable.Cell>
                  <IndexTable.Cell>{`${claim.evidenceCount} file${claim.evidenceCount === 1 ? "" : "s"}`}</IndexTable.Cell>
                  <IndexTable.Cell>{formatTime(claim.createdAt)}</IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        </Layout.Section>
        <NextPage href={href("claims")} filters={filters} after={nextAfter} label="Older claims" />
      </Layout>
    </Page>
  );
}
