// Shopify's customers/data_request exports (shopify_data_requests): what was held about a customer, kept as JSON text
// for the merchant to hand over.
import type { Queryable } from "../../../server/index.ts";

export interface ShopifyDataRequest {
  id: string;
  shop: string;
  customerId: string;
  createdAt: number;
}

export async function insertShopifyDataRequest(
  tx: Queryable,
  request: ShopifyDataRequest & { export: string },
): Promise<void> {
  await tx.run("INSERT INTO shopify_data_requests (id, shop, customer_id, export, created_at) VALUES (?, ?, ?, ?, ?)", [
    request.id,
    request.shop,
    request.customerId,
    request.export,
    request.createdAt,
  ]);
}

/** The export (JSON text) of one of the shop's requests; undefined for another shop's request or an unknown id. */
export async function findShopifyDataRequestExport(
  tx: Queryable,
  shop: string,
  id: string,
): Promise<string | undefined> {
  return (
    await tx.get<{ export: string }>("SELECT export FROM shopify_data_requests WHERE id = ? AND shop = ?", [id, shop])
  )?.export;
}

/** The shop's requests, newest first, without their exports. */
export async function listShopifyDataRequests(
  tx: Queryable,
  shop: string,
  limit: number,
): Promise<ShopifyDataRequest[]> {
  const rows = await tx.all<{ id: string; shop: string; customer_id: string; created_at: number }>(
    "SELECT id, shop, customer_id, created_at FROM shopify_data_requests WHERE shop = ? ORDER BY created_at DESC LIMIT ?",
    [shop, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    shop: row.shop,
    customerId: row.customer_id,
    createdAt: Number(row.created_at),
  }));
}

export async function deleteCustomerShopifyDataRequests(
  tx: Queryable,
  shop: string,
  customerId: string,
): Promise<void> {
  await tx.run("DELETE FROM shopify_data_requests WHERE shop = ? AND customer_id = ?", [shop, customerId]);
}
