// The buyer portal's pages are server-side clients of the portal API (/api/v1/portal/*, GET /api/v1/claims): each
// call goes through the protection runtime's in-process fetch with the buyer's Node bindings, so the API's per-IP
// limits see the buyer, not this server.
import { API_BASE_PATH } from "../../server/index.ts";
import { protectionRuntime, type ApiLoadContext } from "../protection-api.server.ts";
import type { ApiErrorBody } from "./messages.ts";

// The wire shapes are the core's own types, through the facade.
import type {
  EvidenceFile,
  PortalClaim,
  PortalClaimWithTimeline,
  PortalPlan,
  PortalSession,
  TimelineEntry,
} from "../../server/index.ts";
export type { EvidenceFile, PortalClaim, PortalClaimWithTimeline, PortalPlan, PortalSession, TimelineEntry };

export interface PortalRulebook {
  object: "list";
  data: { code: string; name: string; description: string }[];
  denialReasons: { code: string; message: string }[];
  claimWindowDays: number;
  freeLookHours: number;
  payout: { shopifyBusinessDays: number; merchantDays: number; bankBusinessDays: string };
  evidence: {
    maxFiles: number;
    maxFileBytes: number;
    contentTypes: string[];
    quotas: Record<"claim" | "plan" | "session", { maxFiles: number; maxBytes: number }>;
  };
}

export type ApiResult<T> =
  { ok: true; data: T } | { ok: false; status: number; error: ApiErrorBody; retryAfterSeconds?: number };

/** What a page hands the client: the request (for its origin) and Remix's load context (the buyer's Node bindings). */
export interface CallContext {
  request: Request;
  context: unknown;
}

type Body = { json: unknown } | { form: FormData } | undefined;

async function call<T>(
  { request, context }: CallContext,
  method: "GET" | "POST",
  path: string,
  token: string | undefined,
  body?: Body,
): Promise<ApiResult<T>> {
  const response = await send({ request, context }, method, path, token, body);
  return readResult<T>(response);
}

async function send(
  { request, context }: CallContext,
  method: "GET" | "POST",
  path: string,
  token: string | undefined,
  body?: Body,
): Promise<Response> {
  const headers = new Headers({ Accept: "application/json" });
  if (token) headers.set("Authorization", `Bearer ${token}`);
  // One key per submission: a page's POST is one buyer action; a browser retry of the form is a new submission.
  if (method === "POST") headers.set("Idempotency-Key", crypto.randomUUID());
  let payload: BodyInit | undefined;
  if (body && "json" in body) {
    headers.set("Content-Type", "application/json");
    payload = JSON.stringify(body.json);
  } else if (body) {
    // fetch sets multipart/form-data with its boundary from the FormData.
    payload = body.form;
  }
  const url = new URL(`${API_BASE_PATH}${path}`, request.url);
  try {
    const runtime = protectionRuntime();
    return await runtime.api.fetch(
      new Request(url, { method, headers, body: payload }),
      (context as ApiLoadContext | undefined)?.nodeBindings,
    );
  } catch (error) {
    console.error("[portal] the protection API could not be reached:", error);
    return new Response(JSON.stringify({ error: { type: "api_error", code: "service_unavailable" } }), {
      status: 503,
    });
  }
}

async function readResult<T>(response: Response): Promise<ApiResult<T>> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return { ok: true, data: parsed as T };
  const error = (parsed as { error?: ApiErrorBody } | undefined)?.error ?? { code: "api_error" };
  const retryAfter = Number(response.headers.get("Retry-After"));
  return {
    ok: false,
    status: response.status,
    error,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  };
}

export const portalApi = {
  lookup: (ctx: CallContext, input: { email: string } & ({ referenceNumber: string } | { orderNumber: string })) =>
    call<PortalSession>(ctx, "POST", "/portal/lookup", undefined, { json: input }),
  coverageLink: (ctx: CallContext, input: { referenceNumber: string; token: string }) =>
    call<PortalSession>(ctx, "POST", "/portal/coverage-link", undefined, { json: input }),
  signOut: (ctx: CallContext, token: string) =>
    call<{ object: "portal_session"; deleted: true }>(ctx, "POST", "/portal/sign-out", token, { json: {} }),
  plan: (ctx: CallContext, token: string) => call<PortalPlan>(ctx, "GET", "/portal/plan", token),
  reasons: (ctx: CallContext) => call<PortalRulebook>(ctx, "GET", "/portal/reasons", undefined),
  cancel: (ctx: CallContext, token: string, referenceNumber: string) =>
    call<PortalPlan>(ctx, "POST", "/portal/cancel", token, { json: { referenceNumber } }),
  claims: (ctx: CallContext, token: string) =>
    call<{ object: "list"; data: PortalClaim[]; has_more: boolean }>(ctx, "GET", "/claims?limit=100", token),
  claim: (ctx: CallContext, token: string, claimId: string) =>
    call<PortalClaimWithTimeline>(ctx, "GET", `/portal/claims/${encodeURIComponent(claimId)}`, token),
  /**
   * The id of the session plan's claim with this number (the pages' URLs name claims by number, /portal/claims/2, as
   * the buyer does), or a 404 result. An id (clm_…) from an older link passes through as it is.
   */
  async claimId(ctx: CallContext, token: string, claim: string): Promise<ApiResult<string>> {
    if (!/^\d{1,9}$/.test(claim)) return { ok: true, data: claim };
    const listed = await portalApi.claims(ctx, token);
    if (!listed.ok) return listed;
    const found = listed.data.data.find((entry) => entry.number === Number(claim));
    return found
      ? { ok: true, data: found.id }
      : { ok: false, status: 404, error: { code: "resource_missing", message: "No such claim." } };
  },
  fileClaim: (ctx: CallContext, token: string, form: FormData) =>
    call<PortalClaim>(ctx, "POST", "/portal/claims", token, { form }),
  addMessage: (ctx: CallContext, token: string, claimId: string, form: FormData) =>
    call<PortalClaimWithTimeline>(ctx, "POST", `/portal/claims/${encodeURIComponent(claimId)}/messages`, token, {
      form,
    }),
  /** The file itself, as the API answers it (bytes and headers), for the download route to pass on. */
  evidence: (ctx: CallContext, token: string, claimId: string, evidenceId: string) =>
    send(ctx, "GET", `/portal/claims/${encodeURIComponent(claimId)}/evidence/${encodeURIComponent(evidenceId)}`, token),
};
