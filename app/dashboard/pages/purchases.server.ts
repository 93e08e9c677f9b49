// Purchases: the viewer's protected purchases with filters (status, created from/to as UTC dates, order id,
// reference number), a page at a time; a purchase's detail with its consent record and the buyer's e-mails; void
// (owners). A second void of the same purchase is refused (409 plan_not_active), so a repeated submit changes nothing.
// A plan cancelled in its free look on another cart: the owner confirms the fee was refunded through their cart (the
// API's POST /purchases/{id}/fee-refund, channel merchant), with their own reference; a second confirmation changes
// nothing, and a Shopify plan's fee (refunded by the app) is refused.
import { z } from "zod";
import { DAY_MS, getPurchase, listPurchaseEmails, listPurchases } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";
import { parseListFilters, utcDayFilter } from "../list-filters.server.ts";

const filtersSchema = z.object({
  status: z.enum(["active", "voided", "cancelled"], "Choose a status.").optional(),
  from: utcDayFilter.optional(),
  to: utcDayFilter.optional(),
  orderId: z.string().trim().min(1).max(255).optional(),
  reference: z.string().trim().min(1).max(32).optional(),
  after: z.string().min(1).max(255).optional(),
});

export const PURCHASE_FILTERS = ["status", "from", "to", "orderId", "reference"] as const;

export async function loadPurchases({ runtime, viewer, request }: PageContext) {
  const { filters, query, errors } = parseListFilters(filtersSchema, request, PURCHASE_FILTERS);
  if (!query) return { filters, errors, purchases: [], nextAfter: null };
  const page = await listPurchases(
    runtime.db,
    { merchantId: viewer.merchantId, mode: viewer.mode },
    {
      limit: 25,
      startingAfter: query.after,
      status: query.status,
      orderId: query.orderId,
      referenceNumber: query.reference,
      createdGte: query.from,
      createdLt: query.to === undefined ? undefined : query.to + DAY_MS,
    },
  );
  return {
    filters,
    errors,
    purchases: page.data,
    nextAfter: page.hasMore ? page.nextCursor : null,
  };
}

export type PurchasesData = Awaited<ReturnType<typeof loadPurchases>>;

export async function loadPurchase({ runtime, viewer, request }: PageContext) {
  const id = new URL(request.url).pathname.split("/").pop() ?? "";
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const purchase = await getPurchase(runtime.db, actor, decodeURIComponent(id));
  // The buyer's e-mails, those a sending cap held back among them (with the cap), so the merchant can tell the buyer.
  return { purchase, emails: await listPurchaseEmails(runtime.db, actor, purchase.id) };
}

export type PurchaseData = Awaited<ReturnType<typeof loadPurchase>>;

const feeRefundAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const purchaseId = field(form, "purchaseId");
  const values = { reference: field(form, "reference") };
  const result = await formAction(
    "fee_refund",
    { reference: "reference", planId: "purchaseId" },
    () => runtime.core.purchases.confirmFeeRefund(viewer, purchaseId, values),
    values,
  );
  return result.ok
    ? { ok: true, form: "fee_refund", message: `Recorded: the fee of ${result.value.referenceNumber} is refunded.` }
    : result.response;
};

const voidAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const purchaseId = field(form, "purchaseId");
  const result = await formAction("void", { planId: "purchaseId" }, () =>
    runtime.core.purchases.void(viewer, purchaseId),
  );
  return result.ok ? { ok: true, form: "void", message: `${result.value.referenceNumber} is void.` } : result.response;
};

/** The form's choice: confirm the fee refund, or (the default, as before there were two forms) void. */
export const purchaseAction: PageAction<unknown> = async (context) =>
  field(context.form, "intent") === "fee_refund" ? feeRefundAction(context) : voidAction(context);
