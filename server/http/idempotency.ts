import { sha256Hex } from "../domain/ids.ts";
import { LockTimeoutError, type Database, type Queryable } from "../store/database.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyRecord,
  deleteExpiredIdempotencyRecords,
  endKeyWaitBound,
  findIdempotencyRecord,
  reclaimIdempotencyKey,
  storeFinishedIdempotencyRecord,
  transactionRetryingRaces,
  type IdempotencyScope,
} from "../store/idempotency.ts";
import { DomainError } from "../domain/errors.ts";
import type { Principal } from "../domain/merchants.ts";
import type { PortalPrincipal } from "../domain/portal.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { errorBody, errors, toApiError } from "./errors.ts";
import { DAY_MS } from "../vocabulary/time.ts";

/** What a route produces; stored and replayed byte for byte under its idempotency key. */
export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The body reveals a secret (a webhook signing secret): it is stored sealed, like headers. */
  sensitive?: boolean;
}

export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
  replayed: boolean;
}

export const IDEMPOTENCY_TTL_MS = DAY_MS;

export interface IdempotencyOptions {
  db: Database;
  clock: () => number;
  sealer: Sealer;
  /** How long a request waits for an in-flight twin (same key) before answering idempotency_in_progress. */
  inFlightWaitMs: number;
  /** Test seam: called after the side effects are written and before the response is stored. */
  afterSideEffects?: () => void;
}

export interface MutationRequest {
  requestId: string;
  /** The key's merchant, mode and kind, or the portal session's merchant, mode and plan: the scope of its idempotency keys. */
  actor:
    Pick<Principal, "merchantId" | "mode" | "kind"> | Pick<PortalPrincipal, "merchantId" | "mode" | "kind" | "planId">;
  key: string;
  method: string;
  path: string;
  rawBody: string;
}

/**
 * Runs a mutation at most once per (merchant, mode, key kind, idempotency key) for 24 hours (a portal session: per
 * merchant, mode, plan and idempotency key). The key kind is part of
 * the scope so that the page's publishable key can neither pre-claim a key the merchant's server will send with its
 * secret key nor be handed replays of the secret key's responses. The side effects, their
 * event rows and the stored response commit in one transaction, so a crash leaves all of them or none.
 * A repeat with the same request replays the stored response; with a different request it is a conflict.
 * Responses of domain errors (4xx) are stored too; 5xx are not, so a retry after a fault runs again.
 */
export function createIdempotency(options: IdempotencyOptions) {
  const inFlight = new Map<string, Promise<unknown>>();

  async function execute(
    request: MutationRequest,
    mutate: (tx: Queryable) => Promise<RouteResult>,
  ): Promise<StoredResponse> {
    const { merchantId, mode, kind } = scopeOf(request);
    const scope = `${merchantId}\u0000${mode}\u0000${kind}\u0000${request.key}`;
    const fingerprint = `${request.method} ${request.path} ${sha256Hex(request.rawBody)}`;
    const twin = inFlight.get(scope);
    if (twin && !(await settlesWithin(twin, options.inFlightWaitMs))) throw errors.idempotencyInProgress();

    const run = runOnce(request, fingerprint, mutate);
    inFlight.set(scope, run);
    try {
      return await run;
    } finally {
      if (inFlight.get(scope) === run) inFlight.delete(scope);
    }
  }

  async function runOnce(
    request: MutationRequest,
    fingerprint: string,
    mutate: (tx: Queryable) => Promise<RouteResult>,
  ): Promise<StoredResponse> {
    try {
      return await transactionRetryingRaces(options.db, (tx) => claimAndRun(tx, request, fingerprint, mutate), {
        lockTimeoutMs: options.inFlightWaitMs,
      });
    } catch (error) {
      if (error instanceof LockTimeoutError) throw errors.idempotencyInProgress();
      if (error instanceof DomainError) return storeFailure(request, fingerprint, error);
      throw error;
    }
  }

  async function claimAndRun(
    tx: Queryable,
    request: MutationRequest,
    fingerprint: string,
    mutate: (tx: Queryable) => Promise<RouteResult>,
  ): Promise<StoredResponse> {
    const now = options.clock();
    const scope = scopeOf(request);
    if (!(await claimIdempotencyKey(tx, scope, fingerprint, now, now + IDEMPOTENCY_TTL_MS))) {
      const stored = await findIdempotencyRecord(tx, scope);
      if (stored && stored.expiresAt > now) {
        if (stored.fingerprint !== fingerprint) throw errors.idempotencyConflict();
        const body = openBody(stored.body);
        return {
          status: stored.status,
          body: stored.status >= 400 ? withRequestId(body, request.requestId) : body,
          headers: openHeaders(stored.headers),
          replayed: true,
        };
      }
      await reclaimIdempotencyKey(tx, scope, fingerprint, now, now + IDEMPOTENCY_TTL_MS);
    }
    // The key is ours: the lock timeout bounded the wait for a twin holding it, not the mutation's own locks (a
    // quote's row, the e-mail caps' locks), which wait as long as their holders run.
    await endKeyWaitBound(tx);
    const result = await mutate(tx);
    options.afterSideEffects?.();
    const response = {
      status: result.status,
      body: JSON.stringify(result.body),
      headers: result.headers ?? {},
      replayed: false,
    };
    await completeIdempotencyRecord(tx, scope, {
      status: response.status,
      headers: sealHeaders(response.headers),
      body: result.sensitive ? options.sealer.seal(response.body) : response.body,
    });
    return response;
  }

  /**
   * The mutation was rolled back; remember its 4xx answer so that a retry gets the same one. An expired record of
   * the key is replaced; a live one (a twin that finished meanwhile) is kept. What the refusal leaves on record
   * (DomainError.recordRefusal) is written in the same small transaction.
   */
  async function storeFailure(
    request: MutationRequest,
    fingerprint: string,
    error: DomainError,
  ): Promise<StoredResponse> {
    const apiError = toApiError(error);
    const body = errorBody(apiError, request.requestId);
    const now = options.clock();
    await options.db.transaction(async (tx) => {
      await storeFinishedIdempotencyRecord(tx, scopeOf(request), {
        fingerprint,
        status: apiError.status,
        body,
        createdAt: now,
        expiresAt: now + IDEMPOTENCY_TTL_MS,
      });
      await error.recordRefusal?.(tx);
    });
    return { status: apiError.status, body, headers: {}, replayed: false };
  }

  const sealHeaders = (headers: Record<string, string>) =>
    Object.keys(headers).length === 0 ? "" : options.sealer.seal(JSON.stringify(headers));
  const openHeaders = (sealed: string): Record<string, string> =>
    sealed === "" ? {} : JSON.parse(options.sealer.open(sealed));
  // A JSON body starts with '{' or '['; a sealed one with the sealer's "v1." version prefix.
  const openBody = (stored: string) => (stored.startsWith("v1.") ? options.sealer.open(stored) : stored);

  /** Deletes records past their 24 h; run periodically. Returns how many were removed. */
  const purgeExpired = () => options.db.transaction((tx) => deleteExpiredIdempotencyRecords(tx, options.clock()));

  return { execute, purgeExpired };
}

/**
 * A portal session's keys are scoped by its plan too (key kind `portal:<planId>`): two buyers of one merchant never
 * share an idempotency key, and a buyer's next session replays what the last one stored.
 */
const scopeOf = (request: MutationRequest): IdempotencyScope => ({
  merchantId: request.actor.merchantId,
  mode: request.actor.mode,
  kind: request.actor.kind === "portal" ? `portal:${request.actor.planId}` : request.actor.kind,
  key: request.key,
});

/** A stored error body answered again: the request id is this request's (the one in its X-Request-Id and logs). */
function withRequestId(errorJson: string, requestId: string): string {
  const parsed = JSON.parse(errorJson) as { error: { request_id: string } };
  parsed.error.request_id = requestId;
  return JSON.stringify(parsed);
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
