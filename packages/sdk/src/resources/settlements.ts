import { pathSegment, type Transport } from "../request.ts";
import type { SettlementStatement, SettlementWithEntries } from "../responses.ts";
import type { PageQuery } from "../types.ts";
import { Pages } from "./lists.ts";

/** GET /settlements: the merchant's closed settlement statements, newest period first (secret key). */
export class Settlements extends Pages<SettlementStatement, PageQuery> {
  constructor(transport: Transport) {
    super(transport, "/settlements");
  }

  /** One statement with its ledger entries, oldest first. */
  async retrieve(statementId: string): Promise<SettlementWithEntries> {
    return this.transport.body({ method: "GET", path: `/settlements/${pathSegment("statementId", statementId)}` });
  }
}
