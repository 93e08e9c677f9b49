// /ops: the claims queue across merchants — by default what waits for a decision or a payout, oldest first (or
// highest risk or newest first), with each claim's age, who took it and where it stands against the review promise —
// filtered by status, reason, mode, merchant, assignee ("Mine") and risk, or searched by reference number (GET forms:
// the filters and the order are in the URL) — and how the
// last 30 days' claims of the filter's merchant and mode were decided (by a rule or a person, and how fast).
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import {
  COVERED_REASONS,
  DECISION_STATS_DAYS,
  listClaimQueue,
  QUEUE_VIEWS,
  reasonName,
  type ClaimDecisionStats,
} from "../../server/index.ts";
import { requireStaff, runtime } from "../ops/console.server.ts";
import { formAction } from "../form-actions.server.ts";
import { QUEUE_SORT_LABELS, RISK_LEVEL_NAMES, STATUS_LABELS, VIEW_LABELS } from "../ops/labels.ts";
import { ErrorSummary, Field, OpsShell, ReviewMarkerBadge, StatusBadge, TableRegion } from "../ops/ui.tsx";
import { formatDateTime, formatDuration, formatMoney } from "../ui/format.ts";

const FILTERS = ["view", "reason", "mode", "merchantId", "reference", "assignee", "risk", "sort", "after"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireStaff(request);
  const { db, services } = runtime();
  const params = new URL(request.url).searchParams;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ""]));
  const result = await formAction(
    "filters",
    {
      view: "view",
      reason: "reason",
      mode: "mode",
      merchantId: "merchantId",
      reference: "reference",
      assignee: "assignee",
      risk: "risk",
      sort: "sort",
    },
    () => listClaimQueue(db, services, filters, staff.id),
  );
  // A hand-edited URL with a filter the form does not offer shows the default queue and says why.
  const queue = result.ok ? result.value : await listClaimQueue(db, services, {});
  const failure = result.ok ? undefined : await result.response.json();
  return json({
    staff: { email: staff.email, role: staff.role },
    queue,
    failure,
    // The filter's choices come with the data: the page's code in the browser imports nothing from the core.
    views: QUEUE_VIEWS,
    reasons: COVERED_REASONS.map((code) => ({ code, name: reasonName(code) })),
    decisionDays: DECISION_STATS_DAYS,
  });
}

export default function Queue() {
  const { staff, queue, failure, views, reasons, decisionDays } = useLoaderData<typeof loader>();
  const { filters, rows, counts, merchants, nextAfter } = queue;
  const nextPage = new URLSearchParams(
    Object.entries({ ...filters, after: nextAfter ?? "" }).filter(([, value]) => value) as [string, string][],
  );
  return (
    <OpsShell staff={staff}>
      <h1>Claims queue</h1>
      <ErrorSummary errors={failure?.errors} formError={failure?.formError} />
      <Form method="get" className="card search" aria-label="Find a claim by reference number">
        {/* A reference names one plan whatever its claims' status: the search looks at every claim. */}
        <input type="hidden" name="view" value="all" />
        <Field
          id="reference"
          label="Reference number"
          hint="All or part of it, for example CLM-2026-7K3M9Q2X."
          error={failure?.errors?.reference}
        >
          {(props) => (
            <input {...props} type="text" autoComplete="off" maxLength={40} defaultValue={filters.reference ?? ""} />
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="button">
            Find
          </button>
        </div>
      </Form>
      <p>
        <a href="/ops?assignee=mine">My claims</a> · <a href="/ops">Everyone's open claims</a>
      </p>
      <ul className="counts" aria-label="Claims by status">
        {Object.keys(STATUS_LABELS).map((status) => (
          <li key={status}>
            {STATUS_LABELS[status]}: {counts.byStatus[status as keyof typeof counts.byStatus] ?? 0}
          </li>
        ))}
        <li className={counts.payoutErrors > 0 ? "flag" : undefined}>Payout failed: {counts.payoutErrors}</li>
      </ul>
      <DecisionFigures
        decisions={queue.decisions}
        days={decisionDays}
        merchant={merchants.find((merchant) => merchant.id === filters.merchantId)?.name}
        mode={filters.mode}
      />

      <Form method="get" className="card filters" aria-label="Filter the queue">
        <Field id="view" label="Status">
          {(props) => (
            <select {...props} defaultValue={filters.view}>
              {views.map((view) => (
                <option key={view} value={view}>
                  {VIEW_LABELS[view] ?? view}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="reason" label="Reason">
          {(props) => (
            <select {...props} defaultValue={filters.reason ?? ""}>
              <option value="">Any reason</option>
              {reasons.map((reason) => (
                <option key={reason.code} value={reason.code}>
                  {reason.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="mode" label="Mode">
          {(props) => (
            <select {...props} defaultValue={filters.mode ?? ""}>
              <option value="">Test and live</option>
              <option value="live">Live</option>
              <option value="test">Test</option>
            </select>
          )}
        </Field>
        <Field id="assignee" label="Assignee">
          {(props) => (
            <select {...props} defaultValue={filters.assignee ?? ""}>
              <option value="">Anyone or nobody</option>
              <option value="mine">Mine</option>
            </select>
          )}
        </Field>
        <Field id="risk" label="Risk">
          {(props) => (
            <select {...props} defaultValue={filters.risk ?? ""}>
              <option value="">Any risk</option>
              <option value="elevated">Elevated or high</option>
              <option value="high">High</option>
            </select>
          )}
        </Field>
        <Field id="sort" label="Sort">
          {(props) => (
            <select {...props} defaultValue={filters.sort}>
              {Object.entries(QUEUE_SORT_LABELS).map(([sort, label]) => (
                <option key={sort} value={sort}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="merchantId" label="Merchant">
          {(props) => (
            <select {...props} defaultValue={filters.merchantId ?? ""}>
              <option value="">Any merchant</option>
              {merchants.map((merchant) => (
                <option key={merchant.id} value={merchant.id}>
                  {merchant.name} ({merchant.id})
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="button">
            Show
          </button>
        </div>
      </Form>

      {rows.length === 0 ? (
        <p>No claims match these filters.</p>
      ) : (
        <TableRegion label="Claims">
          <table>
            <caption>
              {VIEW_LABELS[filters.view] ?? filters.view}
              {filters.assignee === "mine" ? ", mine" : ""}
              {filters.reference ? `, reference containing ${filters.reference}` : ""}:{" "}
              {QUEUE_SORT_LABELS[filters.sort].toLowerCase()}
              {filters.after ? " (continued)" : ""}
            </caption>
            <thead>
              <tr>
                <th scope="col">Claim</th>
                <th scope="col">Review by</th>
                <th scope="col">Age</th>
                <th scope="col">Status</th>
                <th scope="col">Assignee</th>
                <th scope="col">Risk</th>
                <th scope="col">Reason</th>
                <th scope="col" className="number">
                  Amount
                </th>
                <th scope="col">Merchant</th>
                <th scope="col">Mode</th>
                <th scope="col">Files</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>
                    <a href={`/ops/claims/${encodeURIComponent(row.id)}`} className="code">
                      {row.id}
                    </a>
                    <div className="muted">{row.referenceNumber}</div>
                  </td>
                  <td className="nowrap">
                    {row.review ? (
                      <>
                        {formatDateTime(row.review.dueAt)}
                        <div>
                          <ReviewMarkerBadge marker={row.review.marker} />
                        </div>
                      </>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td className="nowrap" title={`Filed ${formatDateTime(row.createdAt)}`}>
                    {formatDuration(row.ageMs)}
                  </td>
                  <td>
                    <StatusBadge status={row.status} label={STATUS_LABELS[row.status] ?? row.status} />
                    {row.payoutError ? <div className="flag">Payout failed</div> : null}
                  </td>
                  <td>{row.assigneeEmail ?? <span className="muted">Nobody</span>}</td>
                  <td>
                    {row.riskLevel ? (
                      <span className={`risk-${row.riskLevel}`}>{RISK_LEVEL_NAMES[row.riskLevel]}</span>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>{row.reasonName}</td>
                  <td className="number">{formatMoney(row.amountCents, row.currency)}</td>
                  <td>{row.merchantName}</td>
                  <td>{row.mode === "live" ? "Live" : "Test"}</td>
                  <td className="number">{row.evidenceCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {nextAfter ? (
        <p>
          <a href={`/ops?${nextPage.toString()}`}>Next page</a>
        </p>
      ) : null}
    </OpsShell>
  );
}

/**
 * How the period's claims were decided: those whose standing decision (approved or denied) was made in the last
 * DECISION_STATS_DAYS days, the share a claim rule made on its own, the median time from filing to the decision.
 */
function DecisionFigures({
  decisions,
  days,
  merchant,
  mode,
}: {
  decisions: ClaimDecisionStats;
  days: number;
  merchant: string | undefined;
  mode: string | undefined;
}) {
  const whose = `${merchant ? `${merchant}'s` : "Every merchant's"} ${mode ? `${mode} ` : ""}claims`;
  return (
    <section className="card decision-figures" aria-labelledby="decisions-title">
      <h2 id="decisions-title">Decisions, last {days} days</h2>
      <p className="muted">
        {whose} approved or denied from {formatDateTime(decisions.period.from)} to now (a withdrawn approval counts
        once, as its denial).
      </p>
      {decisions.decided === 0 ? (
        <p>No claim was decided in this period.</p>
      ) : (
        <ul className="counts">
          <li>Decided: {decisions.decided}</li>
          <li>
            Decided automatically: {Math.round(decisions.automaticShare! * 100)} % ({decisions.automatic} by a claim
            rule)
          </li>
          <li>Median time from filing to decision: {formatDuration(decisions.medianDecisionMs!)}</li>
        </ul>
      )}
    </section>
  );
}
