// /ops/claims/:id: one claim with what deciding it needs — the buyer's request, its files and timeline, the decision
// and payout, the plan with its consent record, the order with its delivery timeline (each shipment's state and its
// carrier's scans) — and the actions its status allows: start the review, ask
// the buyer for information, approve (refund, or a replacement where the program allows it) or deny with a published
// reason — and, for an admin, record a payment the merchant made in the Shopify admin once the app's Shopify payout
// gave up. Each action is one transaction: the decision and its audit entry, written together or not at all.
import type { ReactNode } from "react";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DomainError, getOpsClaim, type ClaimActionName } from "../../server/index.ts";
import { asStaffMember, checkOrigin, requireStaff, runtime } from "../ops/console.server.ts";
import { field, formAction } from "../form-actions.server.ts";
import {
  ACTOR_LABELS,
  ORDER_DELIVERY_LABELS,
  RISK_LEVEL_NAMES,
  SCAN_STATUS_LABELS,
  SHIPMENT_STATE_LABELS,
  STATUS_LABELS,
} from "../ops/labels.ts";
import { ErrorSummary, Field, Notice, OpsShell, ReviewMarkerBadge, StatusBadge, type FieldErrors } from "../ops/ui.tsx";
import { evidenceLink, Evidence } from "../ops/evidence.tsx";
import { formatDate, formatDateTime, formatMoney } from "../ui/format.ts";
import { DecisionBasis } from "../ui/decision-basis.tsx";
import { readForm } from "../form.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Claim ${data.detail.claim.id} · Claims console` : "Claims console" },
];

const NOTICES: Record<ClaimActionName, string> = {
  start_review: "The review has started.",
  request_information: "The buyer was asked for information (by e-mail and in the portal).",
  approve: "The claim is approved. The buyer is e-mailed; the payout follows.",
  deny: "The claim is denied. The buyer is e-mailed the reason.",
  record_payment: "The payment is recorded: the claim is paid, and the buyer is e-mailed.",
  assign_to_me: "The claim is yours: it is in your queue (Mine).",
  unassign: "You gave the claim back: nobody has it now.",
};

/** Each action's form fields: the core's field name → the page's element id (the form's field names). */
const FIELD_IDS: Record<ClaimActionName, Record<string, string>> = {
  start_review: {},
  request_information: { message: "info-message" },
  approve: { remedy: "approve-remedy-refund", note: "approve-note" },
  deny: { code: "deny-code", note: "deny-note" },
  record_payment: { reference: "payment-reference", note: "payment-note" },
  assign_to_me: {},
  unassign: {},
};

/** Every field of the page's forms (radio buttons share the name `remedy`). */
const FORM_FIELDS = [
  "info-message",
  "remedy",
  "approve-note",
  "deny-code",
  "deny-note",
  "payment-reference",
  "payment-note",
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const staff = await requireStaff(request);
  const notice = new URL(request.url).searchParams.get("notice") ?? "";
  try {
    const detail = await getOpsClaim(runtime().db, runtime().services, params.id ?? "");
    return json({
      staff: { email: staff.email, role: staff.role },
      detail,
      notice: NOTICES[notice as ClaimActionName] as string | undefined,
    });
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found")
      throw new Response("There is no such claim.", { status: 404 });
    throw error;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  checkOrigin(request);
  const form = await readForm(request);
  const claimId = params.id ?? "";
  const name = field(form, "action") as ClaimActionName;
  const fieldIds = FIELD_IDS[name];
  if (!fieldIds) throw new Response("Unknown action.", { status: 400 });
  const values = Object.fromEntries(FORM_FIELDS.map((id) => [id, field(form, id)]));
  const input = {
    action: name,
    ...(name === "approve" ? { remedy: values.remedy, note: values["approve-note"] } : {}),
    ...(name === "deny" ? { code: values["deny-code"], note: values["deny-note"] } : {}),
    ...(name === "request_information" ? { message: values["info-message"] } : {}),
    ...(name === "record_payment" ? { reference: values["payment-reference"], note: values["payment-note"] } : {}),
  };
  const result = await formAction(
    name,
    fieldIds,
    () => asStaffMember(request, context, (staff) => runtime().core.claims.act(staff, claimId, input)),
    values,
  );
  if (!result.ok) return result.response;
  return redirect(`/ops/claims/${encodeURIComponent(claimId)}?notice=${name}`);
}

type Detail = ReturnType<typeof useLoaderData<typeof loader>>["detail"];

/** An approved claim whose plan was cancelled or voided: never paid, it may only be denied (canWithdrawApproval). */
const approvalEnded = (detail: Detail) => detail.claim.status === "approved" && detail.actions.includes("deny");

export default function ClaimPage() {
  const { staff, detail, notice } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const { claim } = detail;
  const errorsOf = (form: ClaimActionName): FieldErrors => (failure?.form === form ? failure.errors : {});
  const valueOf = (form: ClaimActionName, id: string) =>
    failure?.form === form ? (failure.values[id] ?? "") : undefined;
  const money = (cents: number) => formatMoney(cents, claim.currency);
  return (
    <OpsShell staff={staff}>
      <p>
        <a href="/ops">Back to the queue</a>
      </p>
      <h1>
        Claim <span className="code">{claim.id}</span>
      </h1>
      {notice && !failure ? <Notice>{notice}</Notice> : null}
      <ErrorSummary errors={failure?.errors} formError={failure?.formError} />

      <div className="detail-grid">
        <section className="card" aria-labelledby="summary-title">
          <h2 id="summary-title">
            {detail.reasonName}:{" "}
            <StatusBadge status={claim.status} label={STATUS_LABELS[claim.status] ?? claim.status} />
          </h2>
          <dl className="facts">
            <Fact term="Amount asked">{money(claim.amountCents)}</Fact>
            <Fact term="Coverage left for it">{money(detail.remainingCents)}</Fact>
            <Fact term="Happened">{formatDateTime(claim.occurredAt)}</Fact>
            <Fact term="Filed">{formatDateTime(claim.createdAt)}</Fact>
            {detail.review ? (
              <Fact term="Review due">
                {formatDateTime(detail.review.dueAt)} <ReviewMarkerBadge marker={detail.review.marker} />
              </Fact>
            ) : null}
            <Fact term="Merchant">
              {detail.merchant.name} <span className="muted code">({detail.merchant.id})</span>
            </Fact>
            <Fact term="Mode">{detail.mode === "live" ? "Live" : "Test"}</Fact>
            <Fact term="Reference number">{claim.referenceNumber}</Fact>
          </dl>
          <h3 className="spaced">What the buyer wrote</h3>
          <p className="description">{claim.description || <span className="muted">(nothing)</span>}</p>
          <Assignment detail={detail} staffEmail={staff.email} />
        </section>
        <Order detail={detail} />
      </div>

      {detail.order ? <Delivery delivery={detail.order.delivery} /> : null}

      <Risk risk={detail.risk} />

      <Evidence claimId={claim.id} files={detail.evidence} />

      <section className="card" aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <ol className="timeline">
          {detail.timeline.map((entry) => (
            <li key={entry.id}>
              <p className="muted">
                {formatDateTime(entry.at)} · {ACTOR_LABELS[entry.actor] ?? entry.actor}
              </p>
              <p>
                {entry.kind === "submitted"
                  ? "Filed the claim"
                  : entry.kind === "status_changed"
                    ? `Status: ${STATUS_LABELS[entry.status ?? ""] ?? entry.status}`
                    : "Message"}
              </p>
              {entry.text ? <p className="pre">{entry.text}</p> : null}
              {entry.evidence.length > 0 ? (
                <p className="muted">
                  Files:{" "}
                  {entry.evidence.map((file, index) => (
                    <span key={file.id}>
                      {index > 0 ? ", " : ""}
                      <a href={evidenceLink(claim.id, file)}>{file.fileName}</a>
                    </span>
                  ))}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      </section>

      <Outcome detail={detail} />

      {staff.role === "admin" && detail.paymentRecordable ? (
        <RecordPaymentForm
          detail={detail}
          errors={errorsOf("record_payment")}
          valueOf={(id) => valueOf("record_payment", id)}
        />
      ) : null}

      {detail.actions.length > 0 ? (
        <section aria-labelledby="actions-title">
          <h2 id="actions-title">Decide</h2>
          <div className="ops-actions">
            {detail.actions.includes("request_information") ? (
              <Form method="post" className="card" aria-labelledby="info-title">
                <h3 id="info-title">Ask for information</h3>
                <input type="hidden" name="action" value="request_information" />
                <Field
                  id="info-message"
                  label="Message to the buyer"
                  hint="The buyer reads this in the e-mail and in the portal, and answers there."
                  error={errorsOf("request_information")["info-message"]}
                >
                  {(props) => <textarea {...props} defaultValue={valueOf("request_information", "info-message")} />}
                </Field>
                <button type="submit" className="button button-secondary">
                  Ask the buyer
                </button>
              </Form>
            ) : null}
            {detail.actions.includes("approve") ? (
              <ApproveForm detail={detail} errors={errorsOf("approve")} valueOf={(id) => valueOf("approve", id)} />
            ) : null}
            {detail.actions.includes("deny") ? (
              <Form method="post" className="card" aria-labelledby="deny-title">
                <h3 id="deny-title">Deny</h3>
                {approvalEnded(detail) ? (
                  <p>
                    The plan was {detail.plan.status}, so this approval will not be paid. Deny the claim to close it:
                    the buyer reads why.
                  </p>
                ) : null}
                <input type="hidden" name="action" value="deny" />
                <Field
                  id="deny-code"
                  label="Reason"
                  hint="The buyer reads the reason's published sentence."
                  error={errorsOf("deny")["deny-code"]}
                >
                  {(props) => (
                    <select
                      {...props}
                      defaultValue={
                        valueOf("deny", "deny-code") ??
                        (detail.denialReasons.length === 1 ? detail.denialReasons[0].code : "")
                      }
                    >
                      {detail.denialReasons.length > 1 ? <option value="">Choose a reason</option> : null}
                      {detail.denialReasons.map((reason) => (
                        <option key={reason.code} value={reason.code}>
                          {reason.code}: {reason.message}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field
                  id="deny-note"
                  label="Note to the buyer (optional)"
                  hint="Shown to the buyer below the reason."
                  error={errorsOf("deny")["deny-note"]}
                >
                  {(props) => <textarea {...props} defaultValue={valueOf("deny", "deny-note")} />}
                </Field>
                <button type="submit" className="button button-danger">
                  Deny the claim
                </button>
              </Form>
            ) : null}
          </div>
          {detail.actions.includes("start_review") ? (
            <Form method="post" className="card">
              <input type="hidden" name="action" value="start_review" />
              <p>Starting the review tells the buyer someone is looking at the claim.</p>
              <button type="submit" className="button button-secondary">
                Start review
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      <Plan detail={detail} />

      {detail.otherClaims.length > 0 ? (
        <section className="card" aria-labelledby="others-title">
          <h2 id="others-title">Other claims on this plan</h2>
          <ul>
            {detail.otherClaims.map((other) => (
              <li key={other.id}>
                <a href={`/ops/claims/${encodeURIComponent(other.id)}`} className="code">
                  {other.id}
                </a>{" "}
                {other.reasonName}, {money(other.amountCents)}, {STATUS_LABELS[other.status] ?? other.status}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </OpsShell>
  );
}

const Fact = ({ term, children }: { term: string; children: ReactNode }) => (
  <div>
    <dt>{term}</dt>
    <dd>{children}</dd>
  </div>
);

function ApproveForm({
  detail,
  errors,
  valueOf,
}: {
  detail: Detail;
  errors: FieldErrors;
  valueOf: (id: string) => string | undefined;
}) {
  const remedyError = errors["approve-remedy-refund"];
  const chosen = valueOf("remedy") || "refund";
  return (
    <Form method="post" className="card" aria-labelledby="approve-title">
      <h3 id="approve-title">Approve</h3>
      <input type="hidden" name="action" value="approve" />
      <fieldset className={remedyError ? "field field-error" : "field"} aria-describedby="approve-remedy-hint">
        <legend>Remedy</legend>
        <p className="hint" id="approve-remedy-hint">
          {detail.replacementAllowed
            ? "A refund of the amount asked, or a replacement (reshipped goods)."
            : "A refund of the amount asked (this program does not allow replacements)."}
        </p>
        {remedyError ? (
          <p className="error" id="approve-remedy-error">
            {remedyError}
          </p>
        ) : null}
        <label className="radio">
          <input
            type="radio"
            id="approve-remedy-refund"
            name="remedy"
            value="refund"
            defaultChecked={chosen === "refund"}
          />
          Refund {formatMoney(detail.claim.amountCents, detail.claim.currency)}
        </label>
        {detail.replacementAllowed ? (
          <label className="radio">
            <input
              type="radio"
              id="approve-remedy-replacement"
              name="remedy"
              value="replacement"
              defaultChecked={chosen === "replacement"}
            />
            Replacement
          </label>
        ) : null}
      </fieldset>
      <Field
        id="approve-note"
        label="Note to the buyer (optional)"
        hint="Shown to the buyer below the approval."
        error={errors["approve-note"]}
      >
        {(props) => <textarea {...props} defaultValue={valueOf("approve-note")} />}
      </Field>
      <button type="submit" className="button">
        Approve the claim
      </button>
    </Form>
  );
}

/** The merchant paid in the Shopify admin after the app's payout gave up: an admin records it (the claim is paid). */
function RecordPaymentForm({
  detail,
  errors,
  valueOf,
}: {
  detail: Detail;
  errors: FieldErrors;
  valueOf: (id: string) => string | undefined;
}) {
  const { claim } = detail;
  return (
    <Form method="post" className="card narrow" aria-labelledby="payment-title">
      <h2 id="payment-title">Record a payment made in the Shopify admin</h2>
      <p>
        The app gave up paying this claim on Shopify. Once the merchant has paid it by hand in the Shopify admin (
        {claim.resolution?.remedy === "replacement"
          ? "a replacement order"
          : `a refund of ${formatMoney(claim.amountCents, claim.currency)}`}
        ) and told you so, record it here: the claim is paid and the buyer is e-mailed.
      </p>
      <input type="hidden" name="action" value="record_payment" />
      <Field
        id="payment-reference"
        label="Shopify refund or order number"
        hint="As the merchant gave it (for example #1042 or gid://shopify/Refund/…); at most 200 characters."
        error={errors["payment-reference"]}
      >
        {(props) => (
          <input
            {...props}
            type="text"
            autoComplete="off"
            maxLength={200}
            defaultValue={valueOf("payment-reference")}
          />
        )}
      </Field>
      <Field
        id="payment-note"
        label="Note to the buyer (optional)"
        hint="Shown to the buyer below the payment."
        error={errors["payment-note"]}
      >
        {(props) => <textarea {...props} defaultValue={valueOf("payment-note")} />}
      </Field>
      <button type="submit" className="button">
        Record the payment
      </button>
    </Form>
  );
}

/** How far the app's payout job got: "Queued", "Retrying (2 attempts failed)", "Gave up after 5 attempts". */
function payoutJobText(job: { status: string; attempts: number }): string {
  const attempts = `${job.attempts} ${job.attempts === 1 ? "attempt" : "attempts"}`;
  if (job.status === "dead") return `Gave up after ${attempts}`;
  if (job.status === "done") return "Done";
  return job.attempts === 0 ? "Queued" : `Retrying (${attempts} failed)`;
}

function Outcome({ detail }: { detail: Detail }) {
  const { claim } = detail;
  if (!claim.decision && !claim.resolution) return null;
  return (
    <section className="card" aria-labelledby="outcome-title">
      <h2 id="outcome-title">Decision and payout</h2>
      <dl className="facts">
        {claim.decision ? (
          <>
            <Fact term="Decision code">{claim.decision.code}</Fact>
            <Fact term="Decided">{formatDateTime(claim.decision.decidedAt)}</Fact>
            <Fact term="Decided by">
              {claim.decision.decidedBy === "rule"
                ? `Rule ${claim.decision.ruleId}`
                : (detail.decidedByEmail ?? "Claims team")}
            </Fact>
          </>
        ) : null}
        {claim.resolution ? (
          <>
            <Fact term="Remedy">{claim.resolution.remedy === "replacement" ? "Replacement" : "Refund"}</Fact>
            <Fact term="Payout">
              {approvalEnded(detail)
                ? `None: the plan was ${detail.plan.status}`
                : `${claim.resolution.status === "done" ? "Done" : "Pending"} · ${
                    claim.resolution.channel === "shopify" ? "on Shopify" : "by the merchant"
                  }`}
            </Fact>
            <Fact term="Amount">{formatMoney(claim.resolution.amountCents, claim.resolution.currency)}</Fact>
            {claim.resolution.reference ? <Fact term="Reference">{claim.resolution.reference}</Fact> : null}
            {claim.resolution.resolvedAt ? (
              <Fact term="Paid">{formatDateTime(claim.resolution.resolvedAt)}</Fact>
            ) : null}
            {detail.shopifyPayoutJob && claim.status === "approved" ? (
              <Fact term="Payout job on Shopify">{payoutJobText(detail.shopifyPayoutJob)}</Fact>
            ) : null}
          </>
        ) : null}
      </dl>
      {claim.decision ? <p className="pre">{claim.decision.message}</p> : null}
      {claim.decision ? (
        <DecisionBasis
          basis={claim.decision.basis}
          heading={<h3 className="spaced">What the rule's decision rests on (the buyer's sentences, in English)</h3>}
        />
      ) : null}
      {claim.resolution?.error ? (
        <p className="flag" role="status">
          The last payout attempt failed: {claim.resolution.error}
        </p>
      ) : null}
    </section>
  );
}

function Plan({ detail }: { detail: Detail }) {
  const { plan } = detail;
  const money = (cents: number) => formatMoney(cents, plan.currency);
  return (
    <section className="card" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan</h2>
      <dl className="facts">
        <Fact term="Status">{plan.status}</Fact>
        <Fact term="Fee">{money(plan.feeCents)}</Fact>
        <Fact term="Covered">{money(plan.coveredAmountCents)}</Fact>
        <Fact term="Purchased">{formatDateTime(plan.purchasedAt)}</Fact>
        <Fact term="Free look ends">{formatDateTime(plan.freeLookEndsAt)}</Fact>
        {plan.cancelledAt ? <Fact term="Cancelled">{formatDateTime(plan.cancelledAt)}</Fact> : null}
        {plan.voidedAt ? (
          <Fact term="Voided">
            {formatDateTime(plan.voidedAt)}
            {plan.voidReason ? ` (${plan.voidReason})` : ""}
          </Fact>
        ) : null}
      </dl>
      <h3 className="spaced">Consent record</h3>
      {plan.consent ? (
        <>
          <dl className="facts">
            <Fact term="Accepted">{formatDateTime(plan.consent.acceptedAt)}</Fact>
            <Fact term="Where">{plan.consent.surface}</Fact>
            <Fact term="Fee shown">{formatMoney(plan.consent.feeCents, plan.consent.currency)}</Fact>
            <Fact term="Covered shown">{formatMoney(plan.consent.coveredAmountCents, plan.consent.currency)}</Fact>
            <Fact term="Quote">
              <span className="code">{plan.consent.quoteId}</span>
            </Fact>
            <Fact term="Reasons covered">{plan.consent.coveredReasons.length}</Fact>
          </dl>
          <p className="disclosure spaced">{plan.consent.disclosureText}</p>
          <p className="muted">
            Terms: <span className="code">{plan.consent.termsUrl}</span>
          </p>
        </>
      ) : (
        <p className="muted">No consent record is stored for this plan.</p>
      )}
    </section>
  );
}

/** The order beside the claim: what was bought, where it went, whether it arrived; "Not known" where nothing says. */
function Order({ detail }: { detail: Detail }) {
  const { order, plan } = detail;
  const notKnown = <span className="muted">Not known</span>;
  return (
    <section className="card" aria-labelledby="order-title">
      <h2 id="order-title">Order</h2>
      {order ? (
        <>
          <dl className="facts">
            <Fact term="Order number">
              {order.name ? `${order.name} · ` : ""}
              <span className="code">{order.id}</span>
            </Fact>
            <Fact term="From">{order.source === "shopify" ? "A Shopify store" : "The store's own cart (API)"}</Fact>
            <Fact term="Placed">{formatDateTime(plan.purchasedAt)}</Fact>
            <Fact term="Goods covered">{formatMoney(plan.coveredAmountCents, plan.currency)}</Fact>
            <Fact term="Status">{order.status === "merchant_refunded" ? "Refunded by the merchant" : "Protected"}</Fact>
            {order.refundedAt ? <Fact term="Refunded">{formatDateTime(order.refundedAt)}</Fact> : null}
            <Fact term="Shipped to">{order.shipTo ? shipToText(order.shipTo) : notKnown}</Fact>
            <Fact term="Delivery">
              <OrderDeliveryFact order={order} />
            </Fact>
          </dl>
          <h3 className="spaced">Items</h3>
          {order.lines && order.lines.length > 0 ? (
            <table className="order-lines">
              <caption className="sr-only">Items in the order</caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col" className="number">
                    Qty
                  </th>
                  <th scope="col" className="number">
                    Price each
                  </th>
                </tr>
              </thead>
              <tbody>
                {order.lines.map((line, index) => (
                  <tr key={index}>
                    <td>{line.title}</td>
                    <td className="number">{line.quantity}</td>
                    <td className="number">{formatMoney(line.unitPriceCents, plan.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>
              {notKnown}
              <span className="muted">
                {order.source === "shopify"
                  ? " (this order came before the app kept its items)"
                  : " (the store's cart sends the order's total only)"}
              </span>
            </p>
          )}
        </>
      ) : (
        <p className="muted">No order is recorded for this plan.</p>
      )}
    </section>
  );
}

type OrderDelivery = NonNullable<Detail["order"]>["delivery"];

/**
 * The order's delivery state in words, and when it was delivered once every shipment was; an order delivered without a
 * shipment kept (its carrier's delivery recorded on the order alone) says so.
 */
function OrderDeliveryFact({ order }: { order: NonNullable<Detail["order"]> }) {
  const { delivery } = order;
  const deliveredUnshipped = delivery.state === "not_shipped" && order.deliveredAt !== null;
  const when = delivery.state === "delivered" ? delivery.deliveredAt : deliveredUnshipped ? order.deliveredAt : null;
  return (
    <>
      {deliveredUnshipped ? "Delivered (no shipment kept)" : ORDER_DELIVERY_LABELS[delivery.state]}
      {when ? `, ${formatDateTime(when)}` : ""}
      {delivery.overdue ? <span className="flag"> · overdue</span> : null}
    </>
  );
}

/**
 * The order's delivery timeline: each shipment with its state now (a stall says since when; overdue: not delivered
 * within 14 days of the promised date) and its carrier's scans in the order they happened.
 */
function Delivery({ delivery }: { delivery: OrderDelivery }) {
  return (
    <section className="card" aria-labelledby="delivery-title">
      <h2 id="delivery-title">Delivery</h2>
      {delivery.shipments.length === 0 ? (
        <p className="muted">
          No shipment reported: the store has sent no fulfilment or tracking number for this order.
        </p>
      ) : (
        delivery.shipments.map((shipment) => <Shipment key={shipment.id} shipment={shipment} />)
      )}
    </section>
  );
}

function Shipment({ shipment }: { shipment: OrderDelivery["shipments"][number] }) {
  const notKnown = <span className="muted">Not known</span>;
  return (
    <article className="shipment" aria-label={`Shipment ${shipment.trackingNumber ?? shipment.id}`}>
      <h3>
        {shipment.carrier ?? "Carrier not known"} ·{" "}
        {shipment.trackingNumber ? <span className="code">{shipment.trackingNumber}</span> : "no tracking number"}
      </h3>
      <dl className="facts">
        <Fact term="State">
          <strong className={shipment.state === "delivered" ? undefined : `delivery-${shipment.state}`}>
            {SHIPMENT_STATE_LABELS[shipment.state]}
          </strong>
          {shipment.stalledSince ? ` since ${formatDateTime(shipment.stalledSince)}` : ""}
          {shipment.deliveredAt ? `, ${formatDateTime(shipment.deliveredAt)}` : ""}
        </Fact>
        <Fact term="Promised for">
          {shipment.promisedDeliveryDate ? formatDate(`${shipment.promisedDeliveryDate}T00:00:00.000Z`) : notKnown}
        </Fact>
        {shipment.overdue && shipment.deliveryDeadline ? (
          <Fact term="Overdue">
            <span className="flag">Not delivered by {formatDateTime(shipment.deliveryDeadline)}</span> (the promised
            date + 14 days)
          </Fact>
        ) : null}
        <Fact term="Reported">
          {formatDateTime(shipment.createdAt)} ·{" "}
          {shipment.source === "shopify" ? "from a Shopify fulfilment" : "through the API"}
        </Fact>
      </dl>
      {shipment.events.length === 0 ? (
        <p className="muted">No carrier scan yet.</p>
      ) : (
        <ol className="scans">
          {shipment.events.map((scan) => (
            <li key={scan.id}>
              <p className="muted">
                {formatDateTime(scan.occurredAt)}
                {scan.location ? ` · ${scan.location}` : ""}
              </p>
              <p>
                <strong>{SCAN_STATUS_LABELS[scan.status]}</strong>
                {scan.message ? <span className="pre">{scan.message}</span> : null}
              </p>
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}

/** The claim's risk signals, each with what it means: what a person weighs before deciding (never the buyer's view). */
function Risk({ risk }: { risk: Detail["risk"] }) {
  return (
    <section className="card" aria-labelledby="risk-title">
      <h2 id="risk-title">Risk</h2>
      {risk ? (
        <>
          <p>
            <strong className={`risk risk-${risk.level}`}>{RISK_LEVEL_NAMES[risk.level]}</strong>{" "}
            <span className="muted">
              score {risk.score} of 100 · assessed {formatDateTime(risk.assessedAt)}
            </span>
          </p>
          {risk.signals.length > 0 ? (
            <ul className="risk-signals">
              {risk.signals.map((signal) => (
                <li key={signal.name}>
                  {signal.meaning}{" "}
                  <span className="muted code">
                    ({signal.name}, +{signal.weight})
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No signal: nothing in the buyer's claims or photos stands out.</p>
          )}
          <p className="muted">Risk never decides a claim on its own: a high one only waits for a person.</p>
        </>
      ) : (
        <p className="muted">Not assessed: the claim was filed before claims were assessed.</p>
      )}
    </section>
  );
}

/** "Lyon, ARA 69002, FR": the town-level destination kept (no name or street). */
const shipToText = (shipTo: NonNullable<NonNullable<Detail["order"]>["shipTo"]>) =>
  [shipTo.city, [shipTo.region, shipTo.postalCode].filter(Boolean).join(" "), shipTo.countryCode]
    .filter(Boolean)
    .join(", ") || "Not known";

/** Who has the claim, and the button to take it (or give it back). */
function Assignment({ detail, staffEmail }: { detail: Detail; staffEmail: string }) {
  const mine = detail.assignee?.email === staffEmail;
  return (
    <div className="assignment spaced">
      <p>
        <strong>Assignee:</strong> {detail.assignee ? (mine ? "You" : detail.assignee.email) : "Nobody yet"}
      </p>
      {detail.assignable ? (
        <Form method="post">
          <input type="hidden" name="action" value={mine ? "unassign" : "assign_to_me"} />
          <button type="submit" className="button button-secondary">
            {mine ? "Give it back" : detail.assignee ? "Take it over" : "Assign to me"}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
