import { pathSegment, type Transport } from "../request.ts";
import type { SettlementBalances, SettlementStatement, SettlementWithEntries } from "../responses.ts";
import type { PageQuery } from "../types.ts";
import { Pages } from "./lists.ts";

/** GET /settlements: the merchant's closed settlement statements, newest period first (secret key). */
export class Settlements extends Pages<SettlementStatement, PageQuery> {
  constructor(transport: Transport) {
    super(transport, "/settlements");
  }

  /**
   * GET /settlements/balance: the open period's running balance per currency — what its statement would close with
   * now, which way it is owed (`balanceCents`: positive we owe the merchant) and when it closes (`closesAt`).
   */
  async balance(): Promise<SettlementBalances> {
    return this.transport.body({ method: "GET", path: "/settlements/balance" });
  }

  /** One statement with its ledger entries, oldest first. */
  async retrieve(statementId: string): Promise<SettlementWithEntries> {
    return this.transport.body({ method: "GET", path: `/settlements/${pathSegment("statementId", statementId)}` });
  }
}
