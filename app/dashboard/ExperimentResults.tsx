// One offer experiment's figures (docs/api.md "Offer experiments"), as the Experiments and Analytics pages show them:
// a table of its variants — what each offers, offers shown, protected, the attach rate with its 95 % interval, fees
// and fees per offer per currency — and a sentence saying plainly what may be concluded, if anything.
import type { ReactNode } from "react";
import { BlockStack, Card, Layout, Text } from "@shopify/polaris";
import { OFFER_WORDINGS, isOfferWording } from "@purchase-protection/contract";
import type { ExperimentResult } from "../../server/index.ts";
import { formatBps, formatMoney, formatTime } from "../components/dashboard/format.ts";
import { useDashboardHref } from "./shell-context.tsx";
import { PlainTable } from "./page-parts.tsx";

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** What a variant offers, in words. */
export function variantTerms(variant: ExperimentResult["variants"][number]): string {
  if (variant.control) return "Your program as it is";
  const wording = isOfferWording(variant.offerWording) ? OFFER_WORDINGS[variant.offerWording] : "";
  return `${formatBps(variant.rateBps ?? 0)}, “${wording.replace("{price}", "…")}”`;
}

/** The reading in a sentence: never a winner before the data can say so. */
export function readingSentence(result: ExperimentResult, minOffers: number): string {
  if (result.reading === "too_small")
    return `Too early to call: each variant needs at least ${minOffers} offers shown before a difference can be read.`;
  if (result.reading === "leader")
    return `Variant ${result.leader} leads: its attach rate's 95 % interval lies wholly above every other variant's.`;
  return "No clear difference yet: the variants' 95 % intervals overlap.";
}

export function ExperimentResults({
  result,
  minOffers,
  actions,
}: {
  result: ExperimentResult;
  minOffers: number;
  /** An action per variant (roll it out), in the last column; none: no such column. */
  actions?: (variant: ExperimentResult["variants"][number]) => ReactNode;
}) {
  const headings = [
    "Variant",
    "Offers",
    "Offers shown",
    "Protected",
    "Attach rate (95 % interval)",
    "Fees",
    "Fees per offer",
    ...(actions ? ["Action"] : []),
  ];
  return (
    <BlockStack gap="200">
      <PlainTable label={`Variants of experiment ${result.id}`} headings={headings}>
        {result.variants.map((variant) => (
          <tr key={variant.key}>
            <th scope="row">{variant.key}</th>
            <td>{variantTerms(variant)}</td>
            <td>{variant.offersShown}</td>
            <td>{variant.confirmed}</td>
            <td>
              {variant.attachRate === null || variant.attachRateInterval === null
                ? "—"
                : `${percent(variant.attachRate)} (${percent(variant.attachRateInterval.low)}–${percent(variant.attachRateInterval.high)})`}
            </td>
            <td>{variant.revenue.map((each) => formatMoney(each.feeCents, each.currency)).join("; ") || "—"}</td>
            <td>
              {variant.revenue
                .map((each) => formatMoney(Math.round(each.revenuePerOfferCents), each.currency))
                .join("; ") || "—"}
            </td>
            {actions ? <td>{actions(variant)}</td> : null}
          </tr>
        ))}
      </PlainTable>
      <Text as="p">{readingSentence(result, minOffers)}</Text>
    </BlockStack>
  );
}

/** The Analytics page's offer experiments: each that ran in the period, its variants' figures over the period. */
export function ExperimentsSection({ experiments, minOffers }: { experiments: ExperimentResult[]; minOffers: number }) {
  const href = useDashboardHref();
  return (
    <Layout.Section>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Offer experiments
          </Text>
          {experiments.length === 0 ? (
            <Text as="p">
              No offer experiment ran in this period. <a href={href("experiments")}>Start one</a> to compare prices or
              wordings of your offer.
            </Text>
          ) : (
            experiments.map((experiment) => (
              <BlockStack key={experiment.id} gap="200">
                <Text as="h3" variant="headingSm">
                  {`${experiment.state === "running" ? "Running" : "Ran"} from ${formatTime(experiment.startedAt)}${experiment.stoppedAt ? ` to ${formatTime(experiment.stoppedAt)}` : ""}${experiment.state === "rolled_out" ? `: variant ${experiment.rolledOutVariant} rolled out` : ""}`}
                </Text>
                <ExperimentResults result={experiment} minOffers={minOffers} />
              </BlockStack>
            ))
          )}
        </BlockStack>
      </Card>
    </Layout.Section>
  );
}
