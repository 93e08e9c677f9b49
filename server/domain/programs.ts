import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import type { Actor, Services, Tx } from "./context.ts";
import { SUPPORTED_CURRENCIES } from "./money.ts";
import { claimRulesSchema, type ClaimRules } from "./claim-rules.ts";
import {
  findActiveProgram,
  insertProgram,
  updateClaimRules,
  type ProgramRecord,
  type ProgramTerms,
} from "../store/programs.ts";

export type Program = ProgramRecord;

/** The terms every new merchant starts with, in each mode: 3 % of the covered amount, at least 1.00. */
export const DEFAULT_PROGRAM: ProgramTerms = {
  name: "Default protection",
  rateBps: 300,
  minFeeCents: 100,
  maxCoveredCents: 500_000,
  merchantShareBps: 2_000,
  currencies: [...SUPPORTED_CURRENCIES],
  productCategories: [],
};

export async function loadActiveProgram(tx: Tx, actor: Actor, programId: string): Promise<Program> {
  const program = await findActiveProgram(tx, actor, programId);
  if (!program) throw notFound("protection program", programId, "programId");
  return program;
}

export async function createProgram(
  tx: Tx,
  services: Services,
  actor: Actor,
  terms = DEFAULT_PROGRAM,
): Promise<string> {
  const now = services.clock();
  const id = newId("prog", now, services.random);
  await insertProgram(tx, actor, { id, terms, createdAt: now });
  return id;
}

/**
 * Sets the claim rules (server/domain/claim-rules.ts) of the actor's active programs, or of the one named: what claims
 * filed from now on are decided by. Rules that do not parse change nothing.
 */
export async function setClaimRules(
  tx: Tx,
  _services: Services,
  actor: Actor,
  rules: unknown,
  programId?: string,
): Promise<ClaimRules> {
  const parsed = claimRulesSchema.safeParse(rules);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError(
      "invalid",
      "parameter_invalid",
      `Claim rules: ${issue.message}${issue.path.length ? ` (at ${issue.path.join(".")})` : ""}.`,
      ["claimRules", ...issue.path].join("."),
    );
  }
  if ((await updateClaimRules(tx, actor, JSON.stringify(parsed.data), programId)) === 0)
    throw notFound("protection program", programId ?? "(active)", "programId");
  return parsed.data;
}
