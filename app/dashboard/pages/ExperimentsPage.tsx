import { useActionData, useLoaderData } from "@remix-run/react";
import {
  BlockStack,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { ExperimentsData } from "./experiments.server.ts";
import { VARIANT_SLOTS } from "./experiment-slots.ts";
import { DashboardForm, useAccess, useDashboardHref } from "../shell-context.tsx";
import { ConfirmedAction, OutcomeBanners, refusalOf, TableCard, type FormOutcome } from "../page-parts.tsx";
import { ExperimentResults, readingSentence, variantTerms } from "../ExperimentResults.tsx";
import { formatTime } from "../../components/dashboard/format.ts";

const KEYS = ["A", "B", "C"];
const STATE_NAMES = { running: "Running", stopped: "Stopped", rolled_out: "Rolled out" } as const;

/** The start form: two or three variants, each the program as it is or a rate and an approved wording. */
function StartForm({ data, outcome }: { data: ExperimentsData; outcome: FormOutcome | undefined }) {
  const failure = refusalOf(outcome);
  const typed = (name: string, initial: string) =>
    failure?.form === "start" ? (failure.values[name] ?? initial) : initial;
  const [values, setValues] = useState(() =>
    Object.fromEntries(
      VARIANT_SLOTS.flatMap((slot) => [
        [`variant${slot}Kind`, typed(`variant${slot}Kind`, slot === 1 ? "control" : slot === 2 ? "variant" : "none")],
        [`variant${slot}Rate`, typed(`variant${slot}Rate`, String(data.program.ratePercent))],
        [
          `variant${slot}Wording`,
          typed(`variant${slot}Wording`, slot === 2 ? "protect_order" : data.program.offerWording),
        ],
      ]),
    ),
  );
  const set = (name: string) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  const error = (name: string) => (failure?.form === "start" ? failure.errors[name] : undefined);
  return (
    <DashboardForm noValidate>
      <input type="hidden" name="intent" value="start" />
      <FormLayout>
        {VARIANT_SLOTS.map((slot, i) => {
          const kind = values[`variant${slot}Kind`];
          return (
            <fieldset key={slot} className="event-types">
              <legend>{`Variant ${KEYS[i]}`}</legend>
              <BlockStack gap="200">
                <Select
                  label="What it offers"
                  id={`variant${slot}Kind`}
                  name={`variant${slot}Kind`}
                  value={kind}
                  onChange={set(`variant${slot}Kind`)}
                  options={[
                    { label: "Your program as it is (control)", value: "control" },
                    { label: "Another rate or wording", value: "variant" },
                    ...(slot > 2 ? [{ label: "Not tested", value: "none" }] : []),
                  ]}
                  error={error(`variant${slot}Kind`)}
                />
                {kind === "variant" ? (
                  <FormLayout.Group>
                    <TextField
                      label="Rate (% of the covered amount)"
                      id={`variant${slot}Rate`}
                      name={`variant${slot}Rate`}
                      value={values[`variant${slot}Rate`]}
                      onChange={set(`variant${slot}Rate`)}
                      autoComplete="off"
                      inputMode="decimal"
                      helpText={`From ${data.bounds.minPercent} % to ${data.bounds.maxPercent} %; your minimum fee stays.`}
                      error={error(`variant${slot}Rate`)}
                    />
                    <Select
                      label="Wording of the offer"
                      id={`variant${slot}Wording`}
                      name={`variant${slot}Wording`}
                      value={values[`variant${slot}Wording`]}
                      onChange={set(`variant${slot}Wording`)}
                      options={data.wordings.map((wording) => ({
                        label: wording.text.replace("{price}", "…"),
                        value: wording.key,
                      }))}
                      error={error(`variant${slot}Wording`)}
                    />
                  </FormLayout.Group>
                ) : null}
              </BlockStack>
            </fieldset>
          );
        })}
        <Text as="p" tone="subdued">
          The box is never ticked for the buyer, in any variant. Each cart or order gets one variant for good.
        </Text>
        <Button submit variant="primary">
          Start the experiment
        </Button>
      </FormLayout>
    </DashboardForm>
  );
}

export function ExperimentsPage() {
  const data = useLoaderData() as unknown as ExperimentsData;
  const outcome = useActionData() as FormOutcome | undefined;
  const { canChange } = useAccess();
  const href = useDashboardHref();
  const editable = canChange("experiments");
  const running = data.experiments.find((experiment) => experiment.state === "running");
  const ended = data.experiments.filter((experiment) => experiment !== running);
  return (
    <Page
      title="Offer experiments"
      subtitle="Test up to three prices or wordings of your offer on your buyers. Off until you start one."
      backAction={{ content: "Program", url: href("program") }}
    >
      <Layout>
        <OutcomeBanners outcome={outcome} />
        <Layout.Section>
          <Card>
            {running ? (
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {`Running since ${formatTime(running.startedAt)}`}
                </Text>
                <ExperimentResults
                  result={running}
                  minOffers={data.minOffersToCall}
                  actions={
                    editable
                      ? (variant) => (
                          <ConfirmedAction
                            action={`Roll out ${variant.key}`}
                            question={`Roll out variant ${variant.key}? Your program offers ${variantTerms(variant).toLowerCase()} from now on, and the experiment ends.`}
                            confirmLabel={`Yes, roll out ${variant.key}`}
                          >
                            <input type="hidden" name="intent" value="rollout" />
                            <input type="hidden" name="experimentId" value={running.id} />
                            <input type="hidden" name="variant" value={variant.key} />
                          </ConfirmedAction>
                        )
                      : undefined
                  }
                />
                {editable ? (
                  <InlineStack>
                    <ConfirmedAction
                      action="Stop the experiment"
                      question="Stop the experiment? Offers use your program's own terms from now on; the figures stay."
                      confirmLabel="Yes, stop it"
                    >
                      <input type="hidden" name="intent" value="stop" />
                      <input type="hidden" name="experimentId" value={running.id} />
                    </ConfirmedAction>
                  </InlineStack>
                ) : null}
              </BlockStack>
            ) : data.program.merchantPays ? (
              <Text as="p">You pay for protection on every order: buyers are offered nothing to test.</Text>
            ) : editable ? (
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Start an experiment
                </Text>
                <Text as="p">
                  {`No experiment is running: every buyer is offered your program (${data.program.ratePercent} %). Choose two or three variants to compare.`}
                </Text>
                <StartForm data={data} outcome={outcome} />
              </BlockStack>
            ) : (
              <Text as="p">No experiment is running.</Text>
            )}
          </Card>
        </Layout.Section>
        <TableCard
          label="Past experiments"
          headings={["Started", "Ended", "Outcome", "Variants", "Reading"]}
          rowCount={ended.length}
          empty="No past experiments."
        >
          {ended.map((experiment) => (
            <tr key={experiment.id}>
              <td>{formatTime(experiment.startedAt)}</td>
              <td>{experiment.stoppedAt ? formatTime(experiment.stoppedAt) : "—"}</td>
              <td>
                {experiment.state === "rolled_out"
                  ? `Rolled out ${experiment.rolledOutVariant}`
                  : STATE_NAMES[experiment.state]}
              </td>
              <td>
                {experiment.variants
                  .map((variant) => `${variant.key}: ${variant.confirmed} of ${variant.offersShown}`)
                  .join(" · ")}
              </td>
              <td>{readingSentence(experiment, data.minOffersToCall)}</td>
            </tr>
          ))}
        </TableCard>
      </Layout>
    </Page>
  );
}
