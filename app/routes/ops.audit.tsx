// /ops/audit (admins): the append-only log of everything the claims team did — who, when, what, about which claim or
// account, from which address — newest first, filtered by subject (a claim or staff id), a page at a time.
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { listAuditLog } from "../../server/index.ts";
import { requireAdmin, runtime } from "../ops/console.server.ts";
import { formAction } from "../form-actions.server.ts";
import { AUDIT_ACTION_LABELS } from "../ops/labels.ts";
import { ErrorSummary, Field, OpsShell, TableRegion } from "../ops/ui.tsx";
import { formatDateTime } from "../ui/format.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const filters = { subject: params.get("subject") ?? "", before: params.get("before") ?? "" };
  const { db } = runtime();
  const result = await formAction("filters", { subject: "subject" }, () => listAuditLog(db, staff, filters));
  return json({
    staff: { email: staff.email, role: staff.role },
    filters,
    log: result.ok ? result.value : { entries: [], nextBefore: null },
    failure: result.ok ? undefined : await result.response.json(),
  });
}

/** The detail's particulars as `key: value` pairs. */
const describe = (detail: Record<string, unknown>) =>
  Object.entries(detail)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(", ");

export default function AuditLog() {
  const { staff, filters, log, failure } = useLoaderData<typeof loader>();
  const next = new URLSearchParams({
    ...(filters.subject ? { subject: filters.subject } : {}),
    before: log.nextBefore ?? "",
  });
  return (
    <OpsShell staff={staff}>
      <h1>Audit log</h1>
      <p>Every staff action, as it happened. Entries are never changed or deleted.</p>
      <ErrorSummary errors={failure?.errors} formError={failure?.formError} />
      <Form method="get" className="card filters" aria-label="Filter the audit log">
        <Field id="subject" label="Subject" hint="A claim id (clm_…) or a staff id (stf_…).">
          {(props) => <input {...props} type="text" defaultValue={filters.subject} />}
        </Field>
        <div className="actions">
          <button type="submit" className="button">
            Show
          </button>
        </div>
      </Form>
      {log.entries.length === 0 ? (
        <p>No entries.</p>
      ) : (
        <TableRegion label="Audit entries">
          <table>
            <caption>Newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Subject</th>
                <th scope="col">Details</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {log.entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="nowrap">{formatDateTime(entry.at)}</td>
                  <td>{entry.staffEmail}</td>
                  <td>{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</td>
                  <td className="code">
                    {entry.subject.startsWith("clm_") ? (
                      <a href={`/ops/claims/${encodeURIComponent(entry.subject)}`}>{entry.subject}</a>
                    ) : (
                      entry.subject
                    )}
                  </td>
                  <td>{describe(entry.detail)}</td>
                  <td className="code nowrap">{entry.ip}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {log.nextBefore ? (
        <p>
          <a href={`/ops/audit?${next.toString()}`}>Older entries</a>
        </p>
      ) : null}
    </OpsShell>
  );
}
