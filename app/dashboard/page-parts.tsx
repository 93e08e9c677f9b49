// What several dashboard pages show alike: the outcome of a form (a success sentence, or the refusal that belongs to
// no single field), a value shown once (a new key, a signing secret), a filter's from–to UTC days, a list's filter
// problems and its next page, a wide table, a file to download, a copy button, and the confirmation step before what cannot be undone.
import { useEffect, useRef, useState, type ReactNode } from "react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Layout,
  Text,
  TextField,
} from "@shopify/polaris";
import type { ActionFailure } from "../form-actions.server.ts";
import { DashboardForm, useDashboardShell } from "./shell-context.tsx";
import { CONFIRM_FIELD, CONFIRM_VALUE } from "./confirmation.ts";

/** What a page action answers: done (with a sentence), or refused (ActionFailure). */
export type FormOutcome<Done extends object = object> =
  ({ ok: true; form: string; message?: string } & Done) | (ActionFailure & { ok?: undefined });

/** The refusal, if the outcome is one. */
export const refusalOf = <Done extends object>(outcome: FormOutcome<Done> | undefined) =>
  outcome && !outcome.ok ? outcome : undefined;

/** The success sentence or the form-level refusal of the last POST, each in its own layout section. */
export function OutcomeBanners({ outcome }: { outcome: FormOutcome | undefined }) {
  const refusal = refusalOf(outcome);
  return (
    <>
      {outcome?.ok && outcome.message ? (
        <Layout.Section>
          <Banner tone="success">
            <p role="status">{outcome.message}</p>
          </Banner>
        </Layout.Section>
      ) : null}
      {refusal?.formError ? (
        <Layout.Section>
          <Banner tone="critical">
            <p role="alert">{refusal.formError}</p>
          </Banner>
        </Layout.Section>
      ) : null}
    </>
  );
}

/** A secret shown this once (a new API key, a webhook signing secret), ready to copy. */
export function ShownOnce({
  title,
  label,
  value,
  advice,
}: {
  title: string;
  label: string;
  value: string;
  advice: string;
}) {
  return (
    <Layout.Section>
      <Banner tone="warning" title={title}>
        <BlockStack gap="200">
          <TextField label={label} value={value} readOnly autoComplete="off" monospaced selectTextOnFocus />
          <CopyButton value={value} label={`Copy ${label.charAt(0).toLowerCase()}${label.slice(1)}`} />
          <Text as="p">{advice}</Text>
        </BlockStack>
      </Banner>
    </Layout.Section>
  );
}

/**
 * Copies `value` to the clipboard; `label` is the button's accessible name ("Copy the new key"), and a status
 * sentence says whether it worked (a browser may refuse: then the field can still be selected and copied by hand).
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [outcome, setOutcome] = useState<"copied" | "refused" | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setOutcome("copied"),
      () => setOutcome("refused"),
    );
  return (
    <InlineStack gap="200" blockAlign="center">
      <Button onClick={() => void copy()} accessibilityLabel={label}>
        Copy
      </Button>
      <span role="status" className="copy-outcome">
        {outcome === "copied"
          ? "Copied."
          : outcome === "refused"
            ? "Your browser refused: select the text and copy it."
            : ""}
      </span>
    </InlineStack>
  );
}

/**
 * A change that cannot be undone (revoke a key, delete an endpoint, go live) in two steps: the first button asks,
 * naming what happens, and only "Yes, …" posts — with the confirmation field the server requires
 * (confirmation.server.ts), so a stray POST changes nothing. `children` are the form's own fields. `asksFirst`
 * false: the form's fields chose a change that can be undone (a rotation with an overlap), and the button posts.
 */
export function ConfirmedAction({
  action,
  accessibilityLabel,
  question,
  confirmLabel,
  disabled,
  variant,
  asksFirst = true,
  children,
}: {
  /** The first button's text ("Revoke now"). */
  action: string;
  accessibilityLabel?: string;
  /** What happens, asked as a question. */
  question: string;
  /** The button that does it ("Yes, revoke it"). */
  confirmLabel: string;
  disabled?: boolean;
  variant?: "primary";
  asksFirst?: boolean;
  children?: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const step = useRef<HTMLDivElement>(null);
  // The question takes the focus, so a keyboard or screen reader user hears it before the button that acts.
  useEffect(() => {
    if (asking) step.current?.focus();
  }, [asking]);
  return (
    <DashboardForm>
      {children}
      {asking ? (
        <div ref={step} tabIndex={-1} role="group" aria-label={question} className="confirm-step">
          <BlockStack gap="200">
            <Text as="p" fontWeight="semibold">
              {question}
            </Text>
            <input type="hidden" name={CONFIRM_FIELD} value={CONFIRM_VALUE} />
            <InlineStack gap="200">
              <Button submit tone="critical" variant="primary">
                {confirmLabel}
              </Button>
              <Button onClick={() => setAsking(false)}>Cancel</Button>
            </InlineStack>
          </BlockStack>
        </div>
      ) : (
        <InlineStack>
          <Button
            submit={!asksFirst}
            onClick={asksFirst ? () => setAsking(true) : undefined}
            tone={variant || !asksFirst ? undefined : "critical"}
            variant={variant}
            disabled={disabled}
            accessibilityLabel={accessibilityLabel}
          >
            {action}
          </Button>
        </InlineStack>
      )}
    </DashboardForm>
  );
}

/**
 * A GET filter's from–to pair of UTC days (YYYY-MM-DD, the `to` day included), each with its error, as a row of the
 * form of its own: Polaris' group lays out its direct children, so the pair cannot share a row with a page's fields.
 */
export function UtcDayRangeFields({
  labels,
  values,
  errors,
  onChangeOf,
}: {
  labels: { from: string; to: string };
  values: { from: string; to: string };
  errors: { from?: string; to?: string };
  onChangeOf: (name: "from" | "to") => (value: string) => void;
}) {
  return (
    <FormLayout.Group condensed>
      {(["from", "to"] as const).map((name) => (
        <TextField
          key={name}
          label={labels[name]}
          name={name}
          type="date"
          value={values[name]}
          onChange={onChangeOf(name)}
          error={errors[name]}
          autoComplete="off"
        />
      ))}
    </FormLayout.Group>
  );
}

/** A list's filter problems, if any. */
export function FilterProblems({ errors }: { errors: Record<string, string> }) {
  if (Object.keys(errors).length === 0) return null;
  return (
    <Layout.Section>
      <Banner tone="critical">
        <p role="alert">Check the filters: {Object.values(errors).join(" ")}</p>
      </Banner>
    </Layout.Section>
  );
}

/** The link to a list's next page: the same filters, after the last row shown. */
export function NextPage({
  href,
  filters,
  after,
  label,
}: {
  href: string;
  filters: Record<string, string>;
  after: string | null;
  label: string;
}) {
  if (!after) return null;
  const query = new URLSearchParams([...Object.entries(filters).filter(([, value]) => value), ["after", after]]);
  return (
    <Layout.Section>
      <a href={`${href}?${query}`}>{label}</a>
    </Layout.Section>
  );
}

/**
 * Saves the file at `href` through fetch, which App Bridge authenticates with the session token inside the Shopify
 * admin (a plain link would load the file without one). Resolves to a failure sentence, or null when it was saved.
 */
export async function downloadThroughFetch(href: string, fileName: string): Promise<string | null> {
  const response = await fetch(href);
  if (!response.ok) return `The file could not be downloaded (HTTP ${response.status}).`;
  const link = Object.assign(document.createElement("a"), {
    href: URL.createObjectURL(await response.blob()),
    download: fileName,
  });
  link.click();
  URL.revokeObjectURL(link.href);
  return null;
}

/** A download: a plain link in the standalone shell (the session cookie goes with it), a fetch in the admin. */
export function DownloadLink({ href, fileName, children }: { href: string; fileName: string; children: ReactNode }) {
  const { shell } = useDashboardShell();
  const [failure, setFailure] = useState<string | null>(null);
  if (shell === "standalone")
    return (
      <a href={href} download={fileName}>
        {children}
      </a>
    );
  return (
    <InlineStack gap="200" blockAlign="center">
      <Button variant="plain" onClick={() => void downloadThroughFetch(href, fileName).then(setFailure)}>
        {String(children)}
      </Button>
      {failure && (
        <Text as="span" tone="critical">
          {failure}
        </Text>
      )}
    </InlineStack>
  );
}

/**
 * A wide table in its own layout section: a plain table in a focusable region, so it scrolls sideways on a phone and
 * keyboards can scroll it too (Polaris's DataTable and IndexTable fail axe-core's scrollable-region rule there).
 */
export function TableCard({
  label,
  headings,
  rowCount,
  empty,
  children,
}: {
  label: string;
  headings: readonly string[];
  rowCount: number;
  empty: string;
  children: ReactNode;
}) {
  return (
    <Layout.Section>
      <Card padding="0">
        {rowCount === 0 ? (
          <Box padding="400">
            <Text as="p">{empty}</Text>
          </Box>
        ) : (
          <PlainTable label={label} headings={headings}>
            {children}
          </PlainTable>
        )}
      </Card>
    </Layout.Section>
  );
}

/** A plain table in a focusable region (scrolls sideways on a phone, by keyboard too): TableCard's, or inside a card. */
export function PlainTable({
  label,
  headings,
  children,
}: {
  label: string;
  headings: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="table-region" role="region" aria-label={label} tabIndex={0}>
      <table className="plain-table">
        <thead>
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
