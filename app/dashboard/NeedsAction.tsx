// The overview's "Needs your action" (docs/dashboard.md "Needs your action"): what needs the merchant, each item with what to do and a link to where
// to do it, a few of each kind with the count and "see all"; the overdue claims come first and say so. A kind the
// viewer's role cannot open is left out. On /dashboard the member chooses here whether the digest e-mails come to them.
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, Checkbox, InlineStack, Text } from "@shopify/polaris";
import { useState } from "react";
import type { ActionGroup, ActionKind } from "../../server/index.ts";
import type { NeedsActionData } from "./pages/needs-action.server.ts";
import { DashboardForm, useAccess, useDashboardHref } from "./shell-context.tsx";

const HEADINGS: Record<ActionKind, string> = {
  claim_payout: "Approved claims to refund or replace",
  fee_refund: "Protection fees to refund (cancelled in the free look)",
  webhook_endpoint: "Failing webhook endpoints",
  shopify_payout: "Shopify payouts and fee refunds that gave up",
  go_live: "Go-live steps left",
};

function Group({ group }: { group: ActionGroup }) {
  const href = useDashboardHref();
  const headingId = `needs-${group.kind}`;
  return (
    <section aria-labelledby={headingId}>
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm" id={headingId}>
            {HEADINGS[group.kind]}
          </Text>
          <Badge>{String(group.count)}</Badge>
        </InlineStack>
        <ul style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "12px" }}>
          {group.items.map((item) => (
            <li key={item.key}>
              <BlockStack gap="050">
                <InlineStack gap="200" blockAlign="center" wrap>
                  <a href={href(item.link.page, item.link.sub)} style={{ overflowWrap: "anywhere" }}>
                    {item.title}
                  </a>
                  {item.overdue ? <Badge tone="critical">Overdue</Badge> : null}
                </InlineStack>
                <Text as="p" tone={item.overdue ? "critical" : "subdued"}>
                  {item.todo}
                </Text>
              </BlockStack>
            </li>
          ))}
        </ul>
        {group.count > group.items.length ? (
          <a href={href(group.seeAll.page, group.seeAll.sub)}>{`See all ${group.count}`}</a>
        ) : null}
      </BlockStack>
    </section>
  );
}

/** The member's own choice of the digest e-mails (standalone only). */
function ActionEmailsChoice({ wanted, everyHours }: { wanted: boolean; everyHours: number }) {
  const [checked, setChecked] = useState(wanted);
  return (
    <DashboardForm action="/dashboard/action-emails">
      <InlineStack gap="300" blockAlign="center">
        <Checkbox
          label="E-mail me what needs action"
          name="actionEmails"
          value="on"
          checked={checked}
          onChange={setChecked}
          helpText={`At most one e-mail every ${everyHours} hours, only when something new needs you.`}
        />
        <Button submit size="slim">
          Save
        </Button>
      </InlineStack>
    </DashboardForm>
  );
}

export function NeedsAction() {
  const { needsAction } = useLoaderData() as unknown as { needsAction: NeedsActionData };
  const { canView } = useAccess();
  const groups = needsAction.actions.groups.filter((group) => group.items.every((item) => canView(item.link.page)));
  return (
    <section aria-labelledby="needs-action">
      <Card>
        <BlockStack gap="400">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd" id="needs-action">
              Needs your action
            </Text>
            {groups.length > 0 ? (
              <Badge tone="attention">{String(groups.reduce((sum, group) => sum + group.count, 0))}</Badge>
            ) : null}
          </InlineStack>
          {groups.length === 0 ? (
            <Text as="p">Nothing needs you right now.</Text>
          ) : (
            groups.map((group) => <Group key={group.kind} group={group} />)
          )}
          {needsAction.actionEmails === null ? null : (
            <Box paddingBlockStart="100">
              <ActionEmailsChoice wanted={needsAction.actionEmails} everyHours={needsAction.digestEveryHours} />
            </Box>
          )}
        </BlockStack>
      </Card>
    </section>
  );
}
