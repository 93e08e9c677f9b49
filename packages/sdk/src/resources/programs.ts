import { pathSegment, type Transport } from "../request.ts";
import type { Program } from "../responses.ts";
import type { PageQuery } from "../types.ts";
import { Pages } from "./lists.ts";

/**
 * GET /programs: the merchant's protection programs in the key's mode, newest first (secret or restricted key): the
 * ids quotes name as `protection_program_id`, with their terms.
 */
export class Programs extends Pages<Program, PageQuery> {
  constructor(transport: Transport) {
    super(transport, "/programs");
  }

  /** One program and its terms. */
  async retrieve(programId: string): Promise<Program> {
    return this.transport.body({ method: "GET", path: `/programs/${pathSegment("programId", programId)}` });
  }
}
