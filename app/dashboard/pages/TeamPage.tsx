import { useActionData, useLoaderData } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  FormLayout,
  IndexTable,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { TeamMember } from "../../../server/index.ts";
import type { TeamData } from "./team.server.ts";
import { ConfirmedAction, OutcomeBanners, refusalOf, type FormOutcome } from "../page-parts.tsx";
import { DashboardForm } from "../shell-context.tsx";
import { formatTime } from "../../components/dashboard/format.ts";

type TeamResult = FormOutcome;

const ROLE_OPTIONS = [
  { label: "Owner: everything", value: "owner" },
  { label: "Developer: keys and webhooks", value: "developer" },
  { label: "Support: read-only, claims", value: "support" },
];

function MemberActions({ member }: { member: TeamMember }) {
  const [role, setRole] = useState<string>(member.role);
  if (member.status === "disabled") return null;
  return (
    <InlineStack gap="200" blockAlign="end">
      <DashboardForm>
        <input type="hidden" name="intent" value="role" />
        <input type="hidden" name="memberId" value={member.id} />
        <InlineStack gap="200" blockAlign="end">
          <Select
            label={`Role of ${member.email}`}
            name="role"
            value={role}
            onChange={setRole}
            options={ROLE_OPTIONS}
          />
          <Button submit>Change role</Button>
        </InlineStack>
      </DashboardForm>
      <ConfirmedAction
        action="Disable"
        accessibilityLabel={`Disable ${member.email}`}
        question={`Disable ${member.email}? They can no longer sign in and their sessions end now; this cannot be undone.`}
        confirmLabel="Yes, disable"
      >
        <input type="hidden" name="intent" value="disable" />
        <input type="hidden" name="memberId" value={member.id} />
      </ConfirmedAction>
    </InlineStack>
  );
}

export function TeamPage() {
  const { members, me, actionEmails } = useLoaderData() as unknown as TeamData;
  const result = useActionData() as TeamResult | undefined;
  const failure = refusalOf(result);
  const [email, setEmail] = useState(failure?.form === "invite" ? failure.values.email : "");
  const [role, setRole] = useState("developer");
  return (
    <Page title="Team">
      <Layout>
        <OutcomeBanners outcome={result} />
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Invite someone
              </Text>
              <DashboardForm noValidate>
                <input type="hidden" name="intent" value="invite" />
                <FormLayout>
                  <FormLayout.Group>
                    <TextField
                      label="E-mail address"
                      name="email"
                      type="email"
                      autoComplete="off"
                      value={email}
                      onChange={setEmail}
                      error={failure?.form === "invite" ? failure.errors.email : undefined}
                    />
                    <Select
                      label="Role"
                      name="role"
                      value={role}
                      onChange={setRole}
                      options={ROLE_OPTIONS}
                      error={failure?.form === "invite" ? failure.errors.role : undefined}
                    />
                  </FormLayout.Group>
                  <Button submit variant="primary">
                    Send the invitation
                  </Button>
                </FormLayout>
              </DashboardForm>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: "member", plural: "members" }}
              itemCount={members.length}
              selectable={false}
              headings={[
                { title: "E-mail" },
                { title: "Role" },
                { title: "Status" },
                { title: "Last sign-in" },
                { title: "E-mails what needs action" },
                { title: "Actions" },
              ]}
            >
              {members.map((member, index) => (
                <IndexTable.Row id={member.id} key={member.id} position={index}>
                  <IndexTable.Cell>{member.email}</IndexTable.Cell>
                  <IndexTable.Cell>{member.role}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge
                      tone={member.status === "active" ? "success" : member.status === "invited" ? "info" : undefined}
                    >
                      {member.status}
                    </Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{member.lastSignInAt ? formatTime(member.lastSignInAt) : "—"}</IndexTable.Cell>
                  <IndexTable.Cell>{actionEmails.includes(member.id) ? "Yes" : "No"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {member.id === me ? <Text as="span">You</Text> : <MemberActions member={member} />}
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
