// The overview's getting-started checklist (docs/dashboard.md "Getting started as a merchant"): from sign-up to a first live
// order, each step ticked from what it left behind (app/dashboard/pages/getting-started.server.ts), with the
// merchant's ids filled into the snippets. Once every step is done it folds away into one line.
import type { ReactNode } from "react";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Text } from "@shopify/polaris";
import type { GettingStartedData } from "./pages/getting-started.server.ts";
import { CopyButton } from "./page-parts.tsx";
import { useAccess, useDashboardHref } from "./shell-context.tsx";
import { curlSnippet, phpSnippet, typescriptSnippet, widgetSnippet, type SnippetIds } from "./snippets.ts";

/** A snippet as the page shows it (the text a test reads back) and its copy button, under a heading of `level`. */
export function Snippet({
  id,
  title,
  text,
  level = "h4",
}: {
  id: string;
  title: string;
  text: string;
  level?: "h3" | "h4";
}) {
  return (
    <BlockStack gap="100">
      <Text as={level} variant="headingSm">
        {title}
      </Text>
      {/* Focusable: a snippet wider than the page scrolls sideways by keyboard too. */}
      <pre className="snippet" data-snippet={id} tabIndex={0}>
        <code>{text}</code>
      </pre>
      <CopyButton value={text} label={`Copy the ${title.charAt(0).toLowerCase()}${title.slice(1)}`} />
    </BlockStack>
  );
}

function Step({ done, title, children }: { done: boolean; title: string; children: ReactNode }) {
  return (
    <li className={done ? "checklist-step checklist-done" : "checklist-step"} data-step-done={done}>
      <span className="checklist-mark" aria-hidden="true">
        {done ? "✓" : ""}
      </span>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm">
          {title}
          <Text as="span" visuallyHidden>
            {done ? " (done)" : " (to do)"}
          </Text>
        </Text>
        {children}
      </BlockStack>
    </li>
  );
}

/** The checklist in its own layout section (nothing at all when it does not apply). */
export function GettingStarted() {
  const { gettingStarted: data } = useLoaderData() as unknown as { gettingStarted: GettingStartedData };
  const href = useDashboardHref();
  const access = useAccess();
  // Support members neither mint keys nor integrate: the checklist is the builders'.
  if (!data || !data.programId || !access.canView("keys")) return null;
  const ids: SnippetIds = { origin: data.origin, publishableKey: data.publishableKey, programId: data.programId };
  const steps = [data.testKeyPair, true, data.firstTestQuote, data.firstTestOrder, data.webhookEndpoint, data.live];
  const done = steps.filter(Boolean).length;
  const list = (
    <ol className="checklist">
      <Step done={data.testKeyPair} title="Create your test keys">
        <Text as="p">
          A publishable key (wk_test_…) for the widget on your pages and a secret key (mch_test_…) for your server, on{" "}
          <a href={href("keys")}>API keys</a>. The secret key is shown once: keep it on your server.
        </Text>
      </Step>
      <Step done title="Your protection program">
        <Text as="p">Every offer names the program that prices it. Yours:</Text>
        <code className="snippet-inline" data-snippet="program-id">
          {data.programId}
        </code>
        <CopyButton value={data.programId} label="Copy the program id" />
        <Text as="p">
          Its terms, and your merchant id, are on <a href={href("developers")}>Developers</a>.
        </Text>
      </Step>
      <Step done={data.firstTestQuote} title="Show the offer at your checkout">
        <Text as="p">
          Paste the widget into your checkout form, beside the buyer&apos;s e-mail field: it shows the offer, and
          placing the order protects it for that address. It is filled in with your test publishable key and program.
        </Text>
        {data.publishableKey === null && (
          <Text as="p" tone="caution">
            Create a test publishable key on API keys first: the snippet then fills it in.
          </Text>
        )}
        <Snippet id="widget" title="Widget snippet" text={widgetSnippet(ids)} />
        <details className="snippet-details">
          <summary>Or quote from your server: TypeScript, PHP, curl</summary>
          <BlockStack gap="300">
            <Text as="p">
              Set PROTECTION_SECRET_KEY to your secret key. Quote, show the buyer the fee and the disclosure, then
              confirm when the order is placed.
            </Text>
            <Snippet id="typescript" title="TypeScript SDK snippet" text={typescriptSnippet(ids)} />
            <Snippet id="php" title="PHP SDK snippet" text={phpSnippet(ids)} />
            <Snippet id="curl" title="curl snippet" text={curlSnippet(ids)} />
          </BlockStack>
        </details>
      </Step>
      <Step done={data.firstTestOrder} title="Place a first test order">
        <Text as="p">
          Order on your checkout with the box ticked (test mode: no money moves). It appears under{" "}
          <a href={href("purchases")}>Purchases</a>.
        </Text>
      </Step>
      <Step done={data.webhookEndpoint} title="Add a webhook endpoint">
        <Text as="p">
          Hear of plans and claims as they happen: add your endpoint on <a href={href("webhooks")}>Webhooks</a>.
        </Text>
      </Step>
      <Step done={data.live} title="Go live">
        <Text as="p">
          When your test order works, <a href={href("goLive")}>go live</a> and swap in your live keys.
        </Text>
      </Step>
    </ol>
  );
  if (done === steps.length)
    return (
      <Layout.Section>
        <Card>
          <details className="checklist-folded">
            <summary>
              <Text as="h2" variant="headingMd">
                Getting started: all steps done
              </Text>
            </summary>
            {list}
          </details>
        </Card>
      </Layout.Section>
    );
  return (
    <Layout.Section>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Get started
          </Text>
          <Text as="p" tone="subdued">{`${done} of ${steps.length} steps done. Each ticks itself as it happens.`}</Text>
          {list}
        </BlockStack>
      </Card>
    </Layout.Section>
  );
}
