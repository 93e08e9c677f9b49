import { Form, useLoaderData } from "@remix-run/react";
import {
  BlockStack,
  Button,
  Card,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
} from "@shopify/polaris";
import { useState } from "react";
import type { MerchantAnalytics } from "../../../server/index.ts";
import type { AnalyticsData } from "./analytics.server.ts";
import { ANALYTICS_WINDOWS } from "./analytics-windows.ts";
import { reasonLabel } from "../labels.ts";
import { useDashboardHref } from "../shell-context.tsx";
import { DownloadLink, TableCard, UtcDayRangeFields } from "../page-parts.tsx";
import { ExperimentsSection } from "../ExperimentResults.tsx";
import { formatMoney } from "../../components/dashboard/format.ts";
import { formatDuration } from "../../ui/format.ts";

type Currency = MerchantAnalytics["currencies"][number];
type Figures = Currency["current"];

const NOWRAP = { whiteSpace: "nowrap" } as const;

/** A ratio as "12.5 %", "—" without a denominator. */
const percent = (ratio: number | null) => (ratio === null ? "—" : `${(ratio * 100).toFixed(1)} %`);
const day = (iso: string) => iso.slice(0, 10);
/** The period's last day: it ends at the start of the next one. */
const lastDay = (iso: string) => new Date(Date.parse(iso) - 1).toISOString().slice(0, 10);

/** One tile: a figure, the previous period's, and the change (in points for rates). */
function Tile({
  label,
  now,
  before,
  show,
  rate,
}: {
  label: string;
  now: number | null;
  before: number | null;
  show: (value: number | null) => string;
  rate?: boolean;
}) {
  let change = "—";
  if (now !== null && before !== null) {
    const diff = now - before;
    const sign = diff > 0 ? "+" : diff < 0 ? "−" : "±";
    change = rate ? `${sign}${(Math.abs(diff) * 100).toFixed(1)} pts` : `${sign}${show(Math.abs(diff))}`;
  }
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="h3" variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {show(now)}
        </Text>
        <Text as="p" variant="bodySm" tone="subdued">
          {/* Each part kept whole: at 390 px the line breaks between them, never inside "±$0.00". */}
          <span style={NOWRAP}>{`Before: ${show(before)}`}</span> · <span style={NOWRAP}>{`change ${change}`}</span>
        </Text>
      </BlockStack>
    </Card>
  );
}

function Tiles({ currency, current, previous }: { currency: string; current: Figures; previous: Figures }) {
  const money = (value: number | null) => (value === null ? "—" : formatMoney(value, currency));
  const count = (value: number | null) => (value === null ? "—" : String(value));
  const duration = (value: number | null) => (value === null ? "—" : formatDuration(value));
  const tiles: { label: string; key: keyof Figures; show: (value: number | null) => string; rate?: boolean }[] = [
    { label: "Offers shown", key: "offersShown", show: count },
    { label: "Attach rate by orders", key: "attachRateByOrders", show: percent, rate: true },
    { label: "Attach rate by value", key: "attachRateByValue", show: percent, rate: true },
    { label: "Protected order value", key: "protectedOrderValueCents", show: money },
    { label: "Fees buyers paid", key: "buyerFeeCents", show: money },
    { label: "Your share", key: "merchantShareCents", show: money },
    { label: "Protection you paid for", key: "merchantFeeCents", show: money },
    { label: "Claims filed", key: "claimsFiled", show: count },
    { label: "Claim rate", key: "claimRate", show: percent, rate: true },
    { label: "Approval rate", key: "approvalRate", show: percent, rate: true },
    { label: "Amount paid", key: "paidCents", show: money },
    { label: "Loss ratio", key: "lossRatio", show: percent, rate: true },
    { label: "Median time to a decision", key: "medianDecisionMs", show: duration },
  ];
  return (
    <InlineGrid columns={{ xs: 2, md: 3, lg: 4 }} gap="300">
      {tiles.map((tile) => (
        <Tile
          key={tile.key}
          label={tile.label}
          now={current[tile.key]}
          before={previous[tile.key]}
          show={tile.show}
          rate={tile.rate}
        />
      ))}
    </InlineGrid>
  );
}

const WIDTH = 720;
const HEIGHT = 180;
const AXIS = 20;

type Bucket = Currency["series"][number];
/** A column of a chart's table: its heading and its figure per bucket, shown. */
interface Column {
  name: string;
  show: (bucket: Bucket) => string;
}
/** One series of a chart: its name (the legend and the table's heading), its bars' colour and its figure. */
interface Bars {
  name: string;
  color: string;
  value: (bucket: Bucket) => number;
  format: (value: number) => string;
}

/**
 * Bars per bucket, stacked when there are several series (no charting library: a few rects), with a legend, and
 * the same numbers in a table behind a disclosure.
 */
function SeriesChart({
  id,
  title,
  summary,
  series,
  bars,
  moreColumns = [],
}: {
  id: string;
  title: string;
  summary: string;
  series: Bucket[];
  bars: Bars[];
  /** Figures the table adds after the bars' own. */
  moreColumns?: Column[];
}) {
  const columns: Column[] = [
    ...bars.map((bar) => ({ name: bar.name, show: (bucket: Bucket) => bar.format(bar.value(bucket)) })),
    ...moreColumns,
  ];
  const totalOf = (bucket: Bucket) => bars.reduce((sum, bar) => sum + bar.value(bucket), 0);
  const max = Math.max(1, ...series.map(totalOf));
  const slot = WIDTH / Math.max(1, series.length);
  const height = (value: number) => ((HEIGHT - AXIS) * value) / max;
  const first = series[0]?.start ?? "";
  const last = series.at(-1)?.start ?? "";
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingMd">
        {title}
      </Text>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} width="100%">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{`${summary} From ${first} to ${last}; the table below lists each period.`}</desc>
        <line x1="0" y1={HEIGHT - AXIS} x2={WIDTH} y2={HEIGHT - AXIS} stroke="#8a8a8a" />
        {series.map((bucket, i) => {
          let top = HEIGHT - AXIS;
          return bars.map((bar) => {
            const barHeight = height(bar.value(bucket));
            top -= barHeight;
            return (
              <rect
                key={`${bucket.start}-${bar.name}`}
                x={i * slot + slot * 0.1}
                y={top}
                width={Math.max(1, slot * 0.8)}
                height={barHeight}
                fill={bar.color}
              />
            );
          });
        })}
        <text x="0" y={HEIGHT - 4} fontSize="16" fill="#616161">
          {first}
        </text>
        <text x={WIDTH} y={HEIGHT - 4} fontSize="16" fill="#616161" textAnchor="end">
          {last}
        </text>
      </svg>
      {bars.length > 1 && (
        <InlineStack gap="400">
          {bars.map((bar) => (
            <InlineStack key={bar.name} gap="100" blockAlign="center">
              <svg width="12" height="12" aria-hidden="true">
                <rect width="12" height="12" fill={bar.color} />
              </svg>
              <Text as="span" variant="bodySm">
                {bar.name}
              </Text>
            </InlineStack>
          ))}
        </InlineStack>
      )}
      <details>
        <summary>{`The numbers behind “${title}”`}</summary>
        <div className="table-region" role="region" aria-label={title} tabIndex={0}>
          <table className="plain-table">
            <thead>
              <tr>
                {["Period from", ...columns.map((column) => column.name)].map((heading) => (
                  <th key={heading} scope="col">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {series.map((bucket) => (
                <tr key={bucket.start}>
                  <td style={NOWRAP}>{bucket.start}</td>
                  {columns.map((column) => (
                    <td key={column.name}>{column.show(bucket)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </BlockStack>
  );
}

function CurrencySection({ currency }: { currency: Currency }) {
  const code = currency.currency;
  const money = (value: number) => formatMoney(value, code);
  const sum = (value: (bucket: Bucket) => number) => currency.series.reduce((total, b) => total + value(b), 0);
  const confirmed = (bucket: Bucket) => bucket.confirmed;
  return (
    <Layout.Section>
      <BlockStack gap="300">
        <Text as="h2" variant="headingLg">
          {code}
        </Text>
        <Text as="p" tone="subdued">
          {`Attach rates count every offer shown: ${currency.current.abandoned} abandoned offers (neither accepted nor declined) are in the denominators.`}
        </Text>
        <Tiles currency={code} current={currency.current} previous={currency.previous} />
        <Card>
          <SeriesChart
            id={`orders-${code}`}
            title={`Protected orders in ${code} per period`}
            summary={`${sum(confirmed)} protected orders; the busiest period had ${Math.max(0, ...currency.series.map(confirmed))}.`}
            series={currency.series}
            bars={[{ name: "Protected orders", color: "#005bd3", value: confirmed, format: String }]}
            moreColumns={[
              { name: "Offers shown", show: (b) => String(b.offersShown) },
              { name: "Claims filed", show: (b) => String(b.claimsFiled) },
            ]}
          />
        </Card>
        <Card>
          <SeriesChart
            id={`fees-${code}`}
            title={`Fees in ${code} per period`}
            summary={`Buyers paid ${money(sum((b) => b.buyerFeeCents))} in fees; you paid ${money(sum((b) => b.merchantFeeCents))} to protect orders yourself.`}
            series={currency.series}
            bars={[
              { name: "Paid by buyers", color: "#005bd3", value: (b) => b.buyerFeeCents, format: money },
              { name: "Paid by you", color: "#b26a00", value: (b) => b.merchantFeeCents, format: money },
            ]}
          />
        </Card>
      </BlockStack>
    </Layout.Section>
  );
}

export function AnalyticsPage() {
  const { form, errors, days, analytics, csvQuery, reasonNames, minOffersToCall } =
    useLoaderData() as unknown as AnalyticsData;
  const href = useDashboardHref();
  const [values, setValues] = useState(form);
  const set = (name: string) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  const { period, previousPeriod } = analytics;
  return (
    <Page
      title="Analytics"
      subtitle={`${day(period.from)} to ${lastDay(period.to)} (UTC), against ${day(previousPeriod.from)} to ${lastDay(previousPeriod.to)}`}
    >
      <Layout>
        <Layout.Section>
          <Card>
            <Form method="get">
              <FormLayout>
                <FormLayout.Group condensed>
                  <Select
                    label="Period"
                    name="days"
                    value={values.days}
                    onChange={(value) => setValues((current) => ({ ...current, days: value, from: "", to: "" }))}
                    options={[
                      ...ANALYTICS_WINDOWS.map((window) => ({ label: `Last ${window} days`, value: String(window) })),
                      ...(days === null ? [{ label: "From–to below", value: "" }] : []),
                    ]}
                  />
                  <Select
                    label="Interval"
                    name="interval"
                    value={values.interval || analytics.interval}
                    onChange={set("interval")}
                    options={[
                      { label: "Day", value: "day" },
                      { label: "Week", value: "week" },
                      { label: "Month", value: "month" },
                    ]}
                  />
                </FormLayout.Group>
                <UtcDayRangeFields
                  labels={{ from: "Or from (UTC day)", to: "To (UTC day, included)" }}
                  values={values}
                  errors={errors}
                  onChangeOf={set}
                />
                <Button submit>Show</Button>
              </FormLayout>
            </Form>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <DownloadLink href={href("analytics", `.csv${csvQuery}`)} fileName="analytics.csv">
            Download the series (CSV)
          </DownloadLink>
        </Layout.Section>
        {analytics.currencies.length === 0 ? (
          <Layout.Section>
            <Card>
              <Text as="p">No offers, fees or claims in this period or the one before it.</Text>
            </Card>
          </Layout.Section>
        ) : (
          analytics.currencies.map((currency) => <CurrencySection key={currency.currency} currency={currency} />)
        )}
        <Layout.Section>
          <Text as="h2" variant="headingLg">
            Claims by reason
          </Text>
        </Layout.Section>
        <TableCard
          label="Claims filed by reason"
          headings={["Reason", "This period", "Previous period"]}
          rowCount={analytics.claimsByReason.length}
          empty="No claims filed in this period or the one before it."
        >
          {analytics.claimsByReason.map((row) => (
            <tr key={row.reason}>
              <td>{reasonLabel(reasonNames, row.reason)}</td>
              <td>{row.count}</td>
              <td>{row.previousCount}</td>
            </tr>
          ))}
        </TableCard>
        <ExperimentsSection experiments={analytics.experiments} minOffers={minOffersToCall} />
      </Layout>
    </Page>
  );
}
