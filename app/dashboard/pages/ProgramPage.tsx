import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  BlockStack,
  Button,
  Card,
  Checkbox,
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
import { DashboardForm, useAccess } from "../shell-context.tsx";
import { OutcomeBanners, refusalOf, type FormOutcome } from "../page-parts.tsx";
import { formatMinorUnits } from "../../components/dashboard/format.ts";

export function ProgramPage() {
  const { program, currencies, sample, sampleError, preview } = useLoaderData() as unknown as ProgramData;
  const result = useActionData() as FormOutcome | undefined;
  const failure = refusalOf(result);
  const { canChange } = useAccess();
  const editable = canChange("program");
  const shown = (name: string, saved: string) => (failure ? (failure.values[name] ?? saved) : saved);
  const [values, setValues] = useState({
    ratePercent: shown("ratePercent", String(program.rateBps / 100)),
    minFeeCents: shown("minFeeCents", String(program.minFeeCents)),
    maxCoveredCents: shown("maxCoveredCents", String(program.maxCoveredCents)),
    productCategories: shown("productCategories", program.productCategories.join("\n")),
    claimRules: shown("claimRules", JSON.stringify(JSON.parse(program.claimRules), null, 2)),
    settlementPeriod: shown("settlementPeriod", program.settlementPeriod),
  });
  const [chosen, setChosen] = useState<string[]>(program.currencies);
  const [sampleValue, setSampleValue] = useState(sample);
  const set = (name: keyof typeof values) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  const error = (name: string) => failure?.errors[name];
  return (
    <Page title="Program" subtitle="What your buyers are offered, and how claims and statements work">
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
                    label="Sample order amount (minor units)"
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
                  {`An order of ${formatMinorUnits(Number(sample))} is offered protection of ${formatMinorUnits(preview.coveredAmountCents)} for a fee of ${formatMinorUnits(preview.feeCents)} under the saved terms.`}
                </p>
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <DashboardForm noValidate>
              <FormLayout>
                <FormLayout.Group>
                  <TextField
                    label="Rate (% of the covered amount)"
                    name="ratePercent"
                    value={values.ratePercent}
                    onChange={set("ratePercent")}
                    autoComplete="off"
                    error={error("ratePercent")}
                    disabled={!editable}
                  />
                  <TextField
                    label="Minimum fee (minor units)"
                    name="minFeeCents"
                    value={values.minFeeCents}
                    onChange={set("minFeeCents")}
                    autoComplete="off"
                    error={error("minFeeCents")}
                    disabled={!editable}
                  />
                  <TextField
                    label="Maximum covered amount (minor units)"
                    name="maxCoveredCents"
                    value={values.maxCoveredCents}
                    onChange={set("maxCoveredCents")}
                    autoComplete="off"
                    error={error("maxCoveredCents")}
                    disabled={!editable}
                  />
                </FormLayout.Group>
                <fieldset className="event-types">
                  <legend>Currencies</legend>
                  <InlineStack gap="300">
                    {currencies.map((currency) => (
                      <Checkbox
                        key={currency}
                        label={currency}
                        name="currencies"
                        value={currency}
                        checked={chosen.includes(currency)}
                        disabled={!editable}
                        onChange={(checked) =>
                          setChosen((current) =>
                            checked ? [...current, currency] : current.filter((c) => c !== currency),
                          )
                        }
                      />
                    ))}
                  </InlineStack>
                  {error("currencies") ? (
                    <Text as="p" tone="critical">
                      {error("currencies")}
                    </Text>
                  ) : null}
                </fieldset>
                <TextField
                  label="Product categories covered (one per line; none: every category)"
                  name="productCategories"
                  value={values.productCategories}
                  onChange={set("productCategories")}
                  multiline={3}
                  autoComplete="off"
                  error={error("productCategories")}
                  disabled={!editable}
                />
                <TextField
                  label="Claim rules (JSON)"
                  name="claimRules"
                  value={values.claimRules}
                  onChange={set("claimRules")}
                  multiline={6}
                  monospaced
                  autoComplete="off"
                  helpText='For example {"autoApprove": {"maxAmountCents": 5000, "reasons": ["lost_in_transit"]}, "replacementAllowed": true}. Rules decide claims filed from now on.'
                  error={error("claimRules")}
                  disabled={!editable}
                />
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
