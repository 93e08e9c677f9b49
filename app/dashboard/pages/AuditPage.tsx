import { useLoaderData } from "@remix-run/react";
import { Layout, Page } from "@shopify/polaris";
import type { AuditData } from "./audit.server.ts";
import { useDashboardHref } from "../shell-context.tsx";
import { TableCard } from "../page-parts.tsx";
import { formatTime } from "../../components/dashboard/format.ts";
import { auditActionLabel } from "../labels.ts";

export function AuditPage() {
  const { entries, nextBefore } = useLoaderData() as unknown as AuditData;
  const href = useDashboardHref();
  return (
    <Page
      title="Audit log"
      subtitle="Keys, webhooks, program, team and going live: who, when, from where. It cannot be edited."
    >
      <Layout>
        <TableCard
          label="Audit log entries"
          headings={["When", "Who", "Action", "Mode", "About", "From"]}
          rowCount={entries.length}
          empty="Nothing recorded yet."
        >
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{formatTime(entry.at)}</td>
              <td>{entry.actorEmail}</td>
              <td title={entry.action}>{auditActionLabel(entry.action)}</td>
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
        </TableCard>
        {nextBefore ? (
          <Layout.Section>
            <a href={href("audit", `?before=${encodeURIComponent(nextBefore)}`)}>Older entries</a>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
