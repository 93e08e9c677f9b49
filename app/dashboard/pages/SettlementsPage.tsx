import { useLoaderData } from "@remix-run/react";
import { Badge, Card, IndexTable, Layout, Page, Text } from "@shopify/polaris";
import type { Statement } from "../../../server/index.ts";
import type { SettlementsData } from "./settlements.server.ts";
import { useDashboardHref } from "../shell-context.tsx";
import { DownloadLink, NextPage } from "../page-parts.tsx";
import { formatMoney } from "../../components/dashboard/format.ts";
import { BalanceCard } from "../BalanceCard.tsx";

const DIRECTION: Record<Statement["direction"], { label: string; tone?: "success" | "attention" }> = {
  payable_to_merchant: { label: "we pay you", tone: "success" },
  payable_by_merchant: { label: "you pay us", tone: "attention" },
  settled: { label: "settled" },
};

/** A period ends at the start of the next one; the page names its last day. */
const lastDayOf = (periodEnd: string) => new Date(Date.parse(periodEnd) - 1).toISOString().slice(0, 10);

export function SettlementsPage() {
  const { statements, nextAfter } = useLoaderData() as unknown as SettlementsData;
  const href = useDashboardHref();
  return (
    <Page
      title="Settlements"
      subtitle="The open period's running balance, then the closed statements: fees collected, your share, refund credits and claim reimbursements"
    >
      <Layout>
        <Layout.Section>
          <BalanceCard />
        </Layout.Section>
        <Layout.Section>
          <Text as="h2" variant="headingMd">
            Closed statements
          </Text>
        </Layout.Section>
        <Layout.Section>
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: "statement", plural: "statements" }}
              itemCount={statements.length}
              selectable={false}
              headings={[
                { title: "Period (UTC)" },
                { title: "Currency" },
                { title: "Opening" },
                { title: "Net" },
                { title: "Closing" },
                { title: "Entries" },
              ]}
              emptyState={<Text as="p">No closed statements yet: a period closes 15 minutes after it ends.</Text>}
            >
              {statements.map((statement, index) => (
                <IndexTable.Row id={statement.id} key={statement.id} position={index}>
                  <IndexTable.Cell>{`${statement.periodStart.slice(0, 10)} – ${lastDayOf(statement.periodEnd)}`}</IndexTable.Cell>
                  <IndexTable.Cell>{statement.currency}</IndexTable.Cell>
                  <IndexTable.Cell>{formatMoney(statement.openingBalanceCents, statement.currency)}</IndexTable.Cell>
                  <IndexTable.Cell>{formatMoney(statement.netCents, statement.currency)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {formatMoney(Math.abs(statement.closingBalanceCents), statement.currency)}{" "}
                    <Badge tone={DIRECTION[statement.direction].tone}>{DIRECTION[statement.direction].label}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <DownloadLink
                      href={href("settlements", `/${statement.id}/entries.csv`)}
                      fileName={`statement-${statement.id}.csv`}
                    >
                      {`${statement.entryCount} entries (CSV)`}
                    </DownloadLink>
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        </Layout.Section>
        <NextPage href={href("settlements")} filters={{}} after={nextAfter} label="Older statements" />
      </Layout>
    </Page>
  );
}
