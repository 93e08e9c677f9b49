import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  FormLayout,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { ProgramData } from "./program.server.ts";
import { limitFields } from "./program-fields.ts";
import { DashboardForm, useAccess, useDashboardHref, useDashboardShell } from "../shell-context.tsx";
import { OutcomeBanners, refusalOf, type FormOutcome } from "../page-parts.tsx";
import { formatMoney } from "../../components/dashboard/format.ts";

/** A field's error under a group of checkboxes (Polaris's Checkbox shows none for a group). */
function GroupError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <Text as="p" tone="critical" id={id}>
      {error}
    </Text>
  ) : null;
}

export function ProgramPage() {
  const { program, limits, currency, claimRules, reasons, currencies, sample, sampleError, preview } =
    useLoaderData() as unknown as ProgramData;
  const result = useActionData() as FormOutcome | undefined;
  const failure = refusalOf(result);
  const { canChange } = useAccess();
  const href = useDashboardHref();
  // On Shopify the orders path protects every order of a merchant-paid program; elsewhere the merchant's server does.
  const embedded = useDashboardShell().shell === "embedded";
  const editable = canChange("program");
  const shown = (name: string, saved: string) => (failure ? (failure.values[name] ?? saved) : saved);
  const [values, setValues] = useState({
    ratePercent: shown("ratePercent", String(program.rateBps / 100)),
    productCategories: shown("productCategories", program.productCategories.join("\n")),
    autoApproveMaxRisk: shown("autoApproveMaxRisk", claimRules.autoApprove?.maxRiskLevel ?? "elevated"),
    settlementPeriod: shown("settlementPeriod", program.settlementPeriod),
    payer: shown("payer", program.payer),
    buyerSharePercent: shown(
      "buyerSharePercent",
      program.buyerShareBps === null ? "50" : String(program.buyerShareBps / 100),
    ),
  });
  const [chosen, setChosen] = useState<string[]>(
    failure ? (failure.values.currencies ?? "").split(",").filter(Boolean) : program.currencies,
  );
  // Each currency's amounts as typed, in its own money: kept while a currency is unticked, sent only for chosen ones.
  const [limitValues, setLimitValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      Object.entries(limits).flatMap(([each, saved]) => {
        const names = limitFields(each);
        return [
          [names.minFee, shown(names.minFee, saved.minFee)],
          [names.maxCovered, shown(names.maxCovered, saved.maxCovered)],
          [names.autoApproveMax, shown(names.autoApproveMax, saved.autoApproveMax)],
        ];
      }),
    ),
  );
  const setLimit = (name: string) => (value: string) => setLimitValues((current) => ({ ...current, [name]: value }));
  const [autoApprove, setAutoApprove] = useState(
    failure ? failure.values.autoApprove === "on" : claimRules.autoApprove !== null,
  );
  const [approvedReasons, setApprovedReasons] = useState<string[]>(
    failure
      ? (failure.values.autoApproveReasons ?? "").split(",").filter(Boolean)
      : [...(claimRules.autoApprove?.reasons ?? [])],
  );
  const [replacement, setReplacement] = useState(
    failure ? failure.values.replacementAllowed === "on" : claimRules.replacementAllowed,
  );
  const [sampleValue, setSampleValue] = useState(sample);
  const set = (name: keyof typeof values) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  const error = (name: string) => failure?.errors[name];
  return (
    <Page
      title="Program"
      subtitle="What your buyers are offered, and how claims and statements work"
      secondaryActions={[{ content: "Offer experiments", url: href("experiments") }]}
    >
      <Layout>
        <OutcomeBanners outcome={result} />
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Fee preview
              </Text>
              <Form method="get">
                <InlineStack gap="300" blockAlign="end">
                  <TextField
                    label={`Sample order amount (${currency})`}
                    name="sample"
                    value={sampleValue}
                    onChange={setSampleValue}
                    autoComplete="off"
                    error={sampleError ?? undefined}
                  />
                  <Button submit>Preview</Button>
                </InlineStack>
              </Form>
              {preview ? (
                <p role="status">
                  {`An order of ${preview.order} is offered protection of ${preview.covered} for a fee of ${preview.fee} under the saved terms`}
                  {program.payer === "buyer"
                    ? "."
                    : program.payer === "merchant"
                      ? ", which you pay: the buyer pays nothing."
                      : `: the buyer pays ${preview.buyerFee} and you pay ${preview.merchantFee}.`}
                </p>
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <DashboardForm noValidate>
              <FormLayout>
                <BlockStack gap="200">
                  <ChoiceList
                    title="Who pays for protection"
                    name="payer"
                    choices={[
                      {
                        label: "The buyer (an offer at checkout)",
                        value: "buyer",
                        helpText: "Buyers choose protection and pay its fee; you earn your share of each fee.",
                      },
                      {
                        label: "You, the merchant (every order protected, no checkbox)",
                        value: "merchant",
                        helpText: embedded
                          ? "Every order is protected and buyers see a notice that your store protects it, with no checkbox or price. The fees are on your statement; you earn no share on protection you pay for."
                          : "The widget shows buyers a notice that your store protects the order, with no checkbox or price; confirm every order from your server with the headless API. The fees are on your statement; you earn no share on protection you pay for.",
                      },
                      {
                        label: "Split (the buyer pays a share)",
                        value: "split",
                        renderChildren: (isSelected: boolean) =>
                          isSelected ? (
                            <TextField
                              label="The buyer pays (% of the fee)"
                              id="buyerSharePercent"
                              name="buyerSharePercent"
                              value={values.buyerSharePercent}
                              onChange={set("buyerSharePercent")}
                              autoComplete="off"
                              inputMode="decimal"
                              helpText="Such as 50; you pay the rest of each fee."
                              error={error("buyerSharePercent")}
                              disabled={!editable}
                            />
                          ) : null,
                      },
                    ]}
                    selected={[values.payer]}
                    onChange={([payer]) => set("payer")(payer)}
                    error={error("payer")}
                    disabled={!editable}
                  />
                  <Text as="p" tone="subdued">
                    Selling into the EU or UK? In the EU and UK the seller carries transit risk until delivery: consider
                    paying for protection yourself rather than selling buyers cover against it.
                  </Text>
                </BlockStack>
                <FormLayout.Group>
                  <TextField
                    label="Rate (% of the covered amount)"
                    id="ratePercent"
                    name="ratePercent"
                    value={values.ratePercent}
                    onChange={set("ratePercent")}
                    autoComplete="off"
                    error={error("ratePercent")}
                    disabled={!editable}
                  />
                </FormLayout.Group>
                <fieldset
                  className="event-types"
                  aria-describedby={error("currencies") ? "currencies-error" : undefined}
                >
                  <legend>Currencies</legend>
                  <InlineStack gap="300">
                    {currencies.map((each) => (
                      <Checkbox
                        key={each}
                        label={each}
                        name="currencies"
                        value={each}
                        checked={chosen.includes(each)}
                        disabled={!editable}
                        onChange={(checked) =>
                          setChosen((current) => (checked ? [...current, each] : current.filter((c) => c !== each)))
                        }
                      />
                    ))}
                  </InlineStack>
                  <GroupError id="currencies-error" error={error("currencies")} />
                </fieldset>
                <Text as="p" tone="subdued">
                  Each currency has its own minimum fee and maximum covered amount, typed in its own money: a larger
                  order is covered up to the maximum.
                </Text>
                {currencies
                  .filter((each) => chosen.includes(each))
                  .map((each) => {
                    const names = limitFields(each);
                    return (
                      <FormLayout.Group key={each}>
                        <TextField
                          label={`Minimum fee (${each})`}
                          id={names.minFee}
                          name={names.minFee}
                          value={limitValues[names.minFee]}
                          onChange={setLimit(names.minFee)}
                          autoComplete="off"
                          inputMode="decimal"
                          helpText={`In ${each}, such as ${formatMoney(12_345, each)}.`}
                          error={error(names.minFee)}
                          disabled={!editable}
                        />
                        <TextField
                          label={`Maximum covered amount (${each})`}
                          id={names.maxCovered}
                          name={names.maxCovered}
                          value={limitValues[names.maxCovered]}
                          onChange={setLimit(names.maxCovered)}
                          autoComplete="off"
                          inputMode="decimal"
                          error={error(names.maxCovered)}
                          disabled={!editable}
                        />
                      </FormLayout.Group>
                    );
                  })}
                <TextField
                  label="Product categories covered (one per line; none: every category)"
                  id="productCategories"
                  name="productCategories"
                  value={values.productCategories}
                  onChange={set("productCategories")}
                  multiline={3}
                  autoComplete="off"
                  error={error("productCategories")}
                  disabled={!editable}
                />
                <fieldset className="event-types claim-rules">
                  <legend>Claim rules (for claims filed from now on)</legend>
                  <BlockStack gap="300">
                    <Checkbox
                      label="Approve some claims without review"
                      helpText="A claim for one of the reasons below, asking at most the amount in its currency, is approved the moment it is filed. A parcel reported lost or late is approved this way only when the carrier's scans bear it out (or, without scans, while no delivery is recorded)."
                      name="autoApprove"
                      value="on"
                      checked={autoApprove}
                      onChange={setAutoApprove}
                      disabled={!editable}
                      error={error("autoApprove")}
                    />
                    {autoApprove ? (
                      <BlockStack gap="300">
                        {currencies
                          .filter((each) => chosen.includes(each))
                          .map((each) => {
                            const name = limitFields(each).autoApproveMax;
                            return (
                              <TextField
                                key={each}
                                label={`Up to this amount (${each})`}
                                id={name}
                                name={name}
                                value={limitValues[name]}
                                onChange={setLimit(name)}
                                autoComplete="off"
                                inputMode="decimal"
                                helpText={`In ${each}, such as ${formatMoney(12_345, each)}. Empty: a person decides every claim in ${each}.`}
                                error={error(name)}
                                disabled={!editable}
                              />
                            );
                          })}
                        <fieldset
                          className="event-types"
                          aria-describedby={error("autoApproveReasons") ? "reasons-error" : undefined}
                        >
                          <legend>For these reasons</legend>
                          {reasons.map((reason) => (
                            <Checkbox
                              key={reason.code}
                              label={reason.name}
                              name="autoApproveReasons"
                              value={reason.code}
                              checked={approvedReasons.includes(reason.code)}
                              disabled={!editable}
                              onChange={(checked) =>
                                setApprovedReasons((current) =>
                                  checked ? [...current, reason.code] : current.filter((code) => code !== reason.code),
                                )
                              }
                            />
                          ))}
                          <GroupError id="reasons-error" error={error("autoApproveReasons")} />
                        </fieldset>
                        <Select
                          label="Up to this risk"
                          name="autoApproveMaxRisk"
                          options={[
                            { label: "Low or elevated", value: "elevated" },
                            { label: "Low only", value: "low" },
                          ]}
                          value={values.autoApproveMaxRisk}
                          onChange={set("autoApproveMaxRisk")}
                          helpText="A riskier claim waits for a person. The service weighs each claim's signals: the same photo on another claim, a buyer's many claims, a claim filed minutes after a delivery scan. Risk never refuses a claim."
                          error={error("autoApproveMaxRisk")}
                          disabled={!editable}
                        />
                      </BlockStack>
                    ) : null}
                    <Checkbox
                      label="Allow a replacement (a reship) instead of a refund"
                      name="replacementAllowed"
                      value="on"
                      checked={replacement}
                      onChange={setReplacement}
                      disabled={!editable}
                      error={error("replacementAllowed")}
                    />
                  </BlockStack>
                </fieldset>
                <Select
                  label="Settlement statements"
                  name="settlementPeriod"
                  value={values.settlementPeriod}
                  onChange={set("settlementPeriod")}
                  options={[
                    { label: "Weekly (Monday to Sunday, UTC)", value: "weekly" },
                    { label: "Monthly", value: "monthly" },
                  ]}
                  error={error("settlementPeriod")}
                  disabled={!editable}
                />
                {editable ? (
                  <Button submit variant="primary">
                    Save the terms
                  </Button>
                ) : null}
              </FormLayout>
            </DashboardForm>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
