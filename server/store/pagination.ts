import type { Actor } from "../vocabulary/actors.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import type { Queryable, SqlValue } from "./database.ts";

/**
 * Newest first, scoped to the owner's merchant and mode. Ids sort by creation time (see domain/ids.ts), so the
 * cursor is simply "ids below this one".
 */
export async function listPage<R extends { id: string }, T>(
  tx: Queryable,
  owner: Actor,
  /** FROM clause; when it joins, the listed table must be aliased `p` … and `alias` names it. */
  from: string,
  columns: string,
  /** `[clause with one ?, value]`; a filter whose value is undefined is not applied. */
  filters: [string, SqlValue | undefined][],
  query: PageQuery,
  map: (row: R) => T,
  alias = "",
): Promise<Page<T>> {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  const applied = filters.filter((filter): filter is [string, SqlValue] => filter[1] !== undefined);
  const where = [`${column("merchant_id")} = ?`, `${column("mode")} = ?`, ...applied.map(([clause]) => clause)];
  const params: SqlValue[] = [owner.merchantId, owner.mode, ...applied.map(([, value]) => value)];
  if (query.startingAfter) {
    where.push(`${column("id")} < ?`);
    params.push(query.startingAfter);
  }
  const rows = await tx.all<R>(
    `SELECT ${columns} FROM ${from} WHERE ${where.join(" AND ")} ORDER BY ${column("id")} DESC LIMIT ${query.limit + 1}`,
    params,
  );
  const hasMore = rows.length > query.limit;
  const page = hasMore ? rows.slice(0, query.limit) : rows;
  return { data: page.map(map), hasMore, nextCursor: hasMore ? page[page.length - 1].id : null };
}
