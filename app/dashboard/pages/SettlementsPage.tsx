import { useLoaderData } from "@remix-run/react";
import { Badge, Box, Layout, Page, Text } from "@shopify/polaris";
import type { Statement } from "../../../server/index.ts";
import type { SettlementsData } from "./settlements.server.ts";
import { useDashboardHref } from "../shell-context.tsx";
import { DownloadLink, NextPage, TableCard } from "../page-parts.tsx";
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
          <Box paddingInline={{ xs: "400", sm: "0" }}>
            <Text as="h2" variant="headingMd">
              Closed statements
            </Text>
          </Box>
        </Layout.Section>
        <TableCard
          label="Closed statements"
          headings={["Period (UTC)", "Currency", "Opening", "Net", "Closing", "Entries"]}
          rowCount={statements.length}
          empty="No closed statements yet: a period closes 15 minutes after it ends."
        >
          {statements.map((statement) => (
            <tr key={statement.id}>
              <td style={{ whiteSpace: "nowrap" }}>
                <a href={href("settlements", `/${statement.id}`)}>
                  {`${statement.periodStart.slice(0, 10)} – ${lastDayOf(statement.periodEnd)}`}
                </a>
              </td>
              <td>{statement.currency}</td>
              <td>{formatMoney(statement.openingBalanceCents, statement.currency)}</td>
              <td>{formatMoney(statement.netCents, statement.currency)}</td>
              <td style={{ whiteSpace: "nowrap" }}>
                {formatMoney(Math.abs(statement.closingBalanceCents), statement.currency)}{" "}
                <Badge tone={DIRECTION[statement.direction].tone}>{DIRECTION[statement.direction].label}</Badge>
              </td>
              <td style={{ whiteSpace: "nowrap" }}>
                <DownloadLink
                  href={href("settlements", `/${statement.id}/entries.csv`)}
                  fileName={`statement-${statement.id}.csv`}
                >
                  {`${statement.entryCount} entries (CSV)`}
                </DownloadLink>
              </td>
            </tr>
          ))}
        </TableCard>
        <NextPage href={href("settlements")} filters={{}} after={nextAfter} label="Older statements" />
      </Layout>
    </Page>
  );
}
