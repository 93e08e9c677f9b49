import { useLoaderData } from "@remix-run/react";
import { Box, Card, Layout, Page, Text } from "@shopify/polaris";
import type { AuditData } from "./audit.server.ts";
import { useDashboardHref } from "../shell-context.tsx";
import { formatTime } from "../../components/dashboard/format.ts";

export function AuditPage() {
  const { entries, nextBefore } = useLoaderData() as unknown as AuditData;
  const href = useDashboardHref();
  return (
    <Page
      title="Audit log"
      subtitle="Keys, webhooks, program, team and going live: who, when, from where. It cannot be edited."
    >
      <Layout>
        <Layout.Section>
          <Card padding="0">
            {entries.length === 0 ? (
              <Box padding="400">
                <Text as="p">Nothing recorded yet.</Text>
              </Box>
            ) : (
              // A plain table in a focusable region: it scrolls sideways on a phone, and keyboards can scroll it too.
              <div className="table-region" role="region" aria-label="Audit log entries" tabIndex={0}>
                <table className="plain-table">
                  <thead>
                    <tr>
                      {["When", "Who", "Action", "Mode", "About", "From"].map((heading) => (
                        <th key={heading} scope="col">
                          {heading}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {entries.map((entry) => (
                      <tr key={entry.id}>
                        <td>{formatTime(entry.at)}</td>
                        <td>{entry.actorEmail}</td>
                        <td>{entry.action}</td>
                        <td>{entry.mode}</td>
                        <td>
                          {[
                            entry.subject,
                            ...Object.entries(entry.detail).map(([key, value]) => `${key}: ${String(value)}`),
                          ].join(" · ")}
                        </td>
                        <td>{entry.ip || "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
        </Layout.Section>
        {nextBefore ? (
          <Layout.Section>
            <a href={href("audit", `?before=${encodeURIComponent(nextBefore)}`)}>Older entries</a>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
