// The buyer portal's use cases: the portal pages call these in process, and the portal API's routes
// (server/http/routes.ts) call the same domain functions, so both answer alike. Each call takes the steps the API
// takes, in its order: the session token looked up, the route's rate limit (per session, per client IP, per e-mail
// address on the sign-ins: the same rule and limiter), the session required, the input checked against the route's
// own schema, the evidence files checked outside the transaction, the change in one transaction. A refusal comes
// back as the API would send it (status, error body, Retry-After), for the pages to show as they did.
import type { z } from "zod";
import type { CoreDeps } from "./deps.ts";
import * as wire from "../http/schemas.ts";
import { ApiError, errors, toApiError } from "../http/errors.ts";
import { parse, refuseNul } from "../http/input.ts";
import { rateLimitRefusal } from "../http/rate-limit.ts";
import { RULES, type RuleName } from "../rate-limits/policies.ts";
import {
  authenticatePortalToken,
  cancelInFreeLook,
  getPortalPlan,
  isPortalToken,
  lookUpPlan,
  openCoverageLink,
  portalRulebook,
  signOutOfPortal,
  type PortalPrincipal,
} from "../domain/portal.ts";
import {
  addClaimMessage,
  fileClaim,
  getPortalClaim,
  listPlanClaims,
  prepareEvidence,
  readPortalEvidence,
  releaseEvidence,
  type UploadedFile,
} from "../domain/claims.ts";

/** The public rulebook: the covered reasons, the windows, the evidence limits. */
export type PortalRulebook = ReturnType<typeof portalRulebook>;

/** A buyer on a portal page: the session token of their cookie (if any) and their address (the per-IP limits). */
export interface Buyer {
  token?: string;
  ip?: string;
}

/** The API's error body, as the pages read it. */
export interface PortalErrorBody {
  type?: string;
  code: string;
  message?: string;
  param?: string;
}

/** A use case's answer: its value, or the refusal as the portal API answers it. */
export type PortalAnswer<T> =
  { ok: true; data: T } | { ok: false; status: number; error: PortalErrorBody; retryAfterSeconds?: number };

/** A multipart form as the API reads one: its text fields and its files. */
export interface PortalForm {
  fields: Record<string, string>;
  files: UploadedFile[];
}

export function portalArea({ db, services, sealer, coverageLinks, logger, rateLimits }: CoreDeps) {
  async function answer<T>(work: () => Promise<T>): Promise<PortalAnswer<T>> {
    try {
      return { ok: true, data: await work() };
    } catch (error) {
      const refused = toApiError(error);
      if (refused.status >= 500) logger.error({ err: error }, "unhandled error");
      return failure(refused);
    }
  }

  /** The session of the buyer's token, or undefined (none, not a portal token, expired or signed out). */
  const sessionOf = async (buyer: Buyer) =>
    buyer.token && isPortalToken(buyer.token) ? authenticatePortalToken(db, buyer.token, services.clock()) : undefined;

  /** The route's rate limit, keyed as the API keys it (server/http/rate-limit.ts). */
  async function limit(
    rule: RuleName,
    buyer: Buyer,
    session: PortalPrincipal | undefined,
    email?: string,
  ): Promise<void> {
    if (!rateLimits) return;
    const signIn = rule === "portalLookup";
    const verdict = await rateLimits.limiter.check(RULES[rule], {
      merchant: session?.merchantId,
      ip: buyer.ip,
      email: email?.trim() ? email : undefined,
      session: signIn ? undefined : session?.sessionId,
      // The sign-ins are anyone's routes: every caller is admitted as the anonymous one.
      authenticated: signIn || session !== undefined,
    });
    const refused = rateLimitRefusal(verdict);
    if (refused) throw refused;
  }

  /** The buyer's session, after the route's limit when it has one; a missing session is the API's 401. */
  async function signedIn(buyer: Buyer, rule?: RuleName): Promise<PortalPrincipal> {
    const session = await sessionOf(buyer);
    if (rule) await limit(rule, buyer, session);
    if (!session) throw errors.portalSessionInvalid();
    return session;
  }

  const body = <T>(schema: z.ZodType<T>, input: unknown) => parse(schema, refuseNul(input, "body"), "body");

  /** Evidence checked and stored outside the transaction, removed again unless the claim kept it. */
  async function withEvidence<T>(
    files: UploadedFile[],
    work: (evidence: Awaited<ReturnType<typeof prepareEvidence>>) => Promise<T>,
  ) {
    const prepared = await prepareEvidence(services, files);
    try {
      return await work(prepared);
    } finally {
      await releaseEvidence(prepared);
    }
  }

  return {
    lookup: (buyer: Buyer, input: { email: string } & ({ referenceNumber: string } | { orderNumber: string })) =>
      answer(async () => {
        await limit("portalLookup", buyer, undefined, input.email);
        const parsed = body(wire.portalLookupRequest, input);
        return db.transaction((tx) => lookUpPlan(tx, services, sealer, parsed));
      }),
    coverageLink: (buyer: Buyer, input: { referenceNumber: string; token: string }) =>
      answer(async () => {
        await limit("portalLookup", buyer, undefined);
        const parsed = body(wire.portalCoverageLinkRequest, input);
        return db.transaction((tx) => openCoverageLink(tx, services, coverageLinks, parsed));
      }),
    signOut: (buyer: Buyer) =>
      answer(async () => {
        const session = await signedIn(buyer, "portalMutation");
        return db.transaction((tx) => signOutOfPortal(tx, services, session));
      }),
    plan: (buyer: Buyer) => answer(async () => getPortalPlan(db, services, await signedIn(buyer))),
    /** The public rulebook, its words in `locale` (English by default). */
    reasons: (locale?: string) => answer(async () => portalRulebook(locale)),
    cancel: (buyer: Buyer, referenceNumber: string) =>
      answer(async () => {
        const session = await signedIn(buyer, "portalMutation");
        const parsed = body(wire.portalCancelRequest, { referenceNumber });
        return db.transaction((tx) => cancelInFreeLook(tx, services, session, parsed.referenceNumber));
      }),
    /** The plan's claims, newest first (the first 100, as the pages list them). */
    claims: (buyer: Buyer) =>
      answer(async () => (await listPlanClaims(db, await signedIn(buyer), { limit: 100 })).data),
    /** One claim with its timeline, its decision's basis in `locale` (a page's buyer's; the API's English without). */
    claim: (buyer: Buyer, claimId: string, locale?: string) =>
      answer(async () => getPortalClaim(db, await signedIn(buyer), claimId, locale)),
    /**
     * The id of the session plan's claim with this number (the pages' URLs name claims by number, /portal/claims/2,
     * as the buyer does), or a 404. An id (clm_…) from an older link passes through as it is.
     */
    claimId: (buyer: Buyer, claim: string) =>
      answer(async () => {
        if (!/^\d{1,9}$/.test(claim)) return claim;
        const listed = await listPlanClaims(db, await signedIn(buyer), { limit: 100 });
        const found = listed.data.find((entry) => entry.number === Number(claim));
        if (!found) throw new ApiError(404, "invalid_request_error", "resource_missing", "No such claim.");
        return found.id;
      }),
    fileClaim: (buyer: Buyer, form: PortalForm) =>
      answer(async () => {
        const session = await signedIn(buyer, "portalMutation");
        const fields = body(wire.fileClaimForm, form.fields);
        return withEvidence(form.files, (evidence) =>
          db.transaction((tx) =>
            fileClaim(
              tx,
              services,
              session,
              {
                referenceNumber: fields.referenceNumber,
                reason: fields.reason,
                occurredAt: fields.occurredAt.at,
                occurredOnDay: fields.occurredAt.day,
                description: fields.description,
                amountCents: fields.amountCents,
              },
              evidence,
            ),
          ),
        );
      }),
    addMessage: (buyer: Buyer, claimId: string, form: PortalForm) =>
      answer(async () => {
        const session = await signedIn(buyer, "portalMutation");
        const fields = body(wire.claimMessageRequest, form.fields);
        return withEvidence(form.files, (evidence) =>
          db.transaction((tx) => addClaimMessage(tx, services, session, claimId, fields, evidence)),
        );
      }),
    /** An evidence file of a claim of the plan: its bytes, stored content type and name. */
    evidence: (buyer: Buyer, claimId: string, evidenceId: string) =>
      answer(async () => readPortalEvidence(db, services, await signedIn(buyer), claimId, evidenceId)),
  };
}

function failure(error: ApiError): PortalAnswer<never> {
  const retryAfter = Number(error.headers?.["Retry-After"]);
  return {
    ok: false,
    status: error.status,
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param ? { param: error.param } : {}),
    },
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  };
}
