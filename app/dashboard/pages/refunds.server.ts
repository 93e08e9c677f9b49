// Refunds: report a refund the merchant issued for a protected order (the spec's dashboard "yes"; the API's
// POST /orders/{orderId}/refund). The plan is voided and the merchant's fee share is credited on the next settlement
// statement; the buyer gets no second refund from us. The page lists the latest orders reported so, and the
// protection fees owed back after free-look cancellations (other carts), each confirmed on its purchase's page.
import { listFeeRefundsToConfirm, listPurchases } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";

/** How many voided purchases the page looks through for the latest refund reports. */
const RECENT = 100;

export async function loadRefunds({ runtime, viewer }: PageContext) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const [voided, feeRefundsOwed] = await Promise.all([
    listPurchases(runtime.db, actor, { limit: RECENT, status: "voided" }),
    listFeeRefundsToConfirm(runtime.db, actor, RECENT),
  ]);
  return { refunded: voided.data.filter((purchase) => purchase.orderStatus === "merchant_refunded"), feeRefundsOwed };
}

export type RefundsData = Awaited<ReturnType<typeof loadRefunds>>;

export const refundsAction: PageAction<unknown> = async ({ runtime, viewer, form }) => {
  const values = { orderId: field(form, "orderId") };
  const result = await formAction(
    "report",
    { orderId: "orderId" },
    () => runtime.core.purchases.reportRefund(viewer, values),
    values,
  );
  if (!result.ok) return result.response;
  return { ok: true, form: "report", refund: result.value };
};
