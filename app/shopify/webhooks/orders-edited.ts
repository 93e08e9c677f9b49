// orders/edited: an edit of the order was committed (staff in the Shopify admin, or an app, through Shopify's order
// editing). Its job refunds the protection units the edit added: an edit is never the buyer's act of choosing
// (docs/shopify.md "When the opt-in and the protection line disagree").
import { handledWebhook } from "./webhook.ts";

/** Shopify's OrderEdit webhook body, as documented for orders/edited: the fields the app reads. */
export interface ShopifyOrderEdit {
  order_edit: {
    id: number;
    order_id: number;
    created_at: string;
    /** Line items whose quantity the edit raised (a new line: from 0) or lowered, with by how much. */
    line_items: {
      additions: { id: number; delta: number }[];
      removals: { id: number; delta: number }[];
    };
  };
}

export const ordersEdited = handledWebhook({
  topic: "orders/edited",
  job: "orders/edited",
  // Removals are not kept: a line taken off after checkout leaves the plan as it is.
  jobPayload: ({ order_edit: edit }: ShopifyOrderEdit) => ({
    editId: String(edit.id),
    orderId: String(edit.order_id),
    additions: edit.line_items.additions.map(({ id, delta }) => ({ lineId: `gid://shopify/LineItem/${id}`, delta })),
  }),
  subject: ({ order_edit: edit }: ShopifyOrderEdit) => String(edit.order_id),
});
