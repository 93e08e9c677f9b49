import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fc from "fast-check";
import { COUNTED_TABLES, DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor } from "../support/client.ts";
import { assertNoInternals, createQuote, REQUEST_ID_PATTERN } from "../support/api-assertions.ts";
import {
  requestArbitrary,
  WRONG_AUTHORIZATION,
  type Fixtures,
  type FuzzRequest,
  type Keys,
} from "../support/fuzz-requests.ts";
import { capturedLog, countRows, wireClient, type LoggedRequest, type WireResponse } from "../support/fuzz-wire.ts";
import { preview } from "../support/fuzz-json.ts";
import { routes } from "../../server/http/routes.ts";
import { EVENT_TYPES } from "../../server/vocabulary/events.ts";
import type { ResolvedAddress } from "../../server/webhooks/address-policy.ts";

// A bounded fuzzer over every route of the route table (new routes are fuzzed without a change here): requests
// derived from valid ones, sent to the real HTTP server on loopback, one at a time, on SQLite and on PostgreSQL.
// It holds that no request is answered (or logged) with a 5xx, that every refusal has the documented error shape
// with the request's own id, and that a refused request changes no row. Rate limits are off: it measures handlers.
// FUZZ_SEED replays a run; FUZZ_REQUESTS changes its size.

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const REQUESTS_PER_DATABASE = Number(process.env.FUZZ_REQUESTS ?? 2_500);
/** The key each round of requests sends: mostly a key that may call the route, so bodies get past authentication. */
const KEY_ROTATION = ["secret", "publishable", "secret", "none", "secret", "wrong", "secret", "publishable"] as const;
type KeyKind = (typeof KEY_ROTATION)[number];
/** The domain tables, and the webhook tables the API writes too. */
const TABLES = [...COUNTED_TABLES, "webhook_endpoints", "webhook_deliveries"];
/** Refusals made before a handler runs: they store nothing, not even an idempotency record. */
const REFUSED_BEFORE_HANDLER = new Set([
  "api_key_missing",
  "api_key_invalid",
  "secret_key_required",
  "idempotency_key_required",
  "body_invalid_json",
  "request_too_large",
  "parameter_unknown",
  "parameter_missing",
  "route_not_found",
  "method_not_allowed",
]);
const ERROR_TYPES = new Set([
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "rate_limit_error",
  "api_error",
]);
const ERROR_FIELDS = new Set(["type", "code", "message", "param", "request_id"]);
/** How long the API may take to log a request the client saw answered early (a half-closed body). */
const LOG_WAIT_MS = 5_000;

/** Every host resolves to one public address, and no DNS query leaves the machine. */
const resolveHost = async (): Promise<ResolvedAddress[]> => [{ address: "93.184.215.14", family: 4 }];

interface Finding {
  kind: "5xx" | "error shape" | "state change" | "no answer";
  route: string;
  status: number | string;
  detail: string;
  request: string;
}

describe.each(DIALECTS)("API fuzzer (%s)", (dialect) => {
  let t: TestApi;
  let fixtures: Fixtures;
  const log = capturedLog();
  beforeAll(async () => {
    // A socket: the mutated requests (raw bodies, odd headers and methods) are what the wire carries.
    t = await startTestApi({ dialect, logger: log.logger, resolveHost, transport: "socket" });
    fixtures = await createFixtures(t);
  });
  afterAll(() => t.close());

  it(
    `${REQUESTS_PER_DATABASE} mutated requests over every route: no 5xx, documented errors, no row changed by a refusal`,
    { timeout: 180_000 },
    async () => {
      const started = Date.now();
      const plan = requestPlan(fixtures);
      const client = wireClient(t.baseUrl);
      const keys: Keys = { secret: t.merchant.secretKey, publishable: t.merchant.publishableKey };
      const findings: Finding[] = [];
      const keyKindsByRoute = new Map<string, Set<KeyKind>>();
      let counts = await countRows(t.database.db, TABLES);
      for (const [index, { request, keyKind }] of plan.entries()) {
        const route = `${request.route.method} ${request.route.path}`;
        keyKindsByRoute.set(route, (keyKindsByRoute.get(route) ?? new Set()).add(keyKind));
        const loggedBefore = log.requests.length;
        const response = await client.send({
          ...request,
          headers: headersFor(request, keyKind, keys, index),
          body: request.body?.bytes,
        });
        await log.waitForRequests(loggedBefore + 1, LOG_WAIT_MS);
        const after = await countRows(t.database.db, TABLES);
        const outcome = { response, logged: log.requests.slice(loggedBefore), before: counts, after };
        const described = describeRequest(request, keyKind);
        for (const problem of problemsOf(request, outcome, log.errors))
          findings.push({ ...problem, route, request: described });
        counts = after;
      }
      // At most one finding of each kind per request.
      const fiveHundreds = findings.filter((finding) => finding.kind === "5xx").length;
      const stateChanges = findings.filter((finding) => finding.kind === "state change").length;

      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `fuzz ${dialect}: seed ${SEED}, ${plan.length} requests sent over ${routes.length} routes, ${fiveHundreds} 5xx seen, ` +
          `${stateChanges} state changes seen, ${findings.length} findings, ${seconds} s`,
      );
      for (const route of routes) {
        assert.deepEqual(
          [...(keyKindsByRoute.get(`${route.method} ${route.path}`) ?? [])].sort(),
          ["none", "publishable", "secret", "wrong"],
          `${route.method} ${route.path} got every key kind`,
        );
      }
      assert.equal(findings.length, 0, report(dialect, findings));
    },
  );
});

interface Outcome {
  response: WireResponse;
  /** What the API logged for the request (one line, unless it never reached the API). */
  logged: LoggedRequest[];
  before: Record<string, number>;
  after: Record<string, number>;
}

/** What is wrong with one request's outcome: a 5xx answered or logged, no answer, a malformed refusal, a refusal that changed rows. */
function problemsOf(
  request: FuzzRequest,
  { response, logged, before, after }: Outcome,
  serverErrors: Map<string, string>,
): Omit<Finding, "route" | "request">[] {
  const problems: Omit<Finding, "route" | "request">[] = [];
  const answered = "status" in response ? response : undefined;
  const serverFaults = logged.filter((line) => line.status >= 500);
  if (serverFaults.length > 0 || (answered && answered.status >= 500)) {
    const messages = serverFaults.map(
      (line) => serverErrors.get(line.requestId) ?? `logged ${line.status} without an error line`,
    );
    const status = `${answered?.status ?? "no answer"}${serverFaults.length > 0 ? ` (logged ${serverFaults.map((line) => line.status).join(", ")})` : ""}`;
    problems.push({ kind: "5xx", status, detail: messages.join(" | ") || "answered 5xx" });
  }
  if (!answered)
    return [...problems, { kind: "no answer", status: "-", detail: (response as { failed: string }).failed }];
  if (answered.status < 300) return problems;
  // Node's HTTP parser answers a half-closed body itself (400, no body) before the API can.
  const answeredByParser = request.transport === "short" && answered.headers["x-request-id"] === undefined;
  const shapeProblem = answeredByParser ? undefined : errorShapeProblem(answered);
  if (shapeProblem) problems.push({ kind: "error shape", status: answered.status, detail: shapeProblem });
  const code = errorCode(answered);
  const changed = unexpectedChanges(before, after, request.method !== "GET" && !REFUSED_BEFORE_HANDLER.has(code ?? ""));
  if (changed) problems.push({ kind: "state change", status: `${answered.status} ${code ?? ""}`, detail: changed });
  return problems;
}

/** The requests of one run: each route's samples (seeded by SEED and the route's place), interleaved round by round. */
function requestPlan(fixtures: Fixtures): { request: FuzzRequest; keyKind: KeyKind }[] {
  const rounds = Math.ceil(REQUESTS_PER_DATABASE / routes.length);
  const samples = routes.map((route, place) =>
    fc.sample(requestArbitrary(route, fixtures), { seed: SEED + place, numRuns: rounds }),
  );
  return Array.from({ length: rounds }, (_, round) =>
    samples.map((perRoute) => ({ request: perRoute[round], keyKind: KEY_ROTATION[round % KEY_ROTATION.length] })),
  )
    .flat()
    .slice(0, REQUESTS_PER_DATABASE);
}

function headersFor(request: FuzzRequest, keyKind: KeyKind, keys: Keys, index: number): Record<string, string> {
  const headers: Record<string, string> = {};
  if (keyKind === "secret" || keyKind === "publishable") headers.Authorization = `Bearer ${keys[keyKind]}`;
  if (keyKind === "wrong") headers.Authorization = WRONG_AUTHORIZATION[request.wrongAuthorization](keys);
  if (request.contentType !== undefined) headers["Content-Type"] = request.contentType;
  const { idempotency } = request;
  if (idempotency.kind === "fresh") headers["Idempotency-Key"] = `fuzz-${SEED}-${String(index).padStart(8, "0")}`;
  if (idempotency.kind === "reused") headers["Idempotency-Key"] = `fuzz-${SEED}-reused-key`;
  if (idempotency.kind === "invalid") headers["Idempotency-Key"] = idempotency.value;
  return headers;
}

const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** What is wrong with a refusal's body, measured against {"error":{"type","code","message","param"?,"request_id"}}. */
function errorShapeProblem(response: Extract<WireResponse, { status: number }>): string | undefined {
  if (!/^application\/json/.test(response.headers["content-type"] ?? ""))
    return `Content-Type ${response.headers["content-type"]}`;
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return `not JSON: ${preview(response.text)}`;
  }
  const error = isJsonObject(body) && Object.keys(body).length === 1 ? body.error : undefined;
  if (!isJsonObject(error)) return `not an error body: ${preview(response.text)}`;
  const extra = Object.keys(error).filter((field) => !ERROR_FIELDS.has(field));
  if (extra.length > 0) return `undocumented fields ${extra.join(", ")}`;
  if (typeof error.type !== "string" || !ERROR_TYPES.has(error.type)) return `type ${error.type}`;
  for (const field of ["code", "message"])
    if (typeof error[field] !== "string" || error[field] === "") return `${field} ${JSON.stringify(error[field])}`;
  if (error.param !== undefined && (typeof error.param !== "string" || error.param === ""))
    return `param ${JSON.stringify(error.param)}`;
  const requestId = response.headers["x-request-id"];
  if (typeof requestId !== "string" || !REQUEST_ID_PATTERN.test(requestId)) return `X-Request-Id ${requestId}`;
  if (error.request_id !== requestId) return `request_id ${error.request_id} is not X-Request-Id ${requestId}`;
  try {
    assertNoInternals(response.text);
  } catch (problem) {
    return `server internals in the body (${(problem as Error).message}): ${preview(response.text)}`;
  }
  return undefined;
}

function errorCode(response: Extract<WireResponse, { status: number }>): string | undefined {
  try {
    return JSON.parse(response.text)?.error?.code;
  } catch {
    return undefined;
  }
}

/** Row counts a refusal changed; a refusal by the handler may store its answer (one idempotency record), nothing else. */
function unexpectedChanges(
  before: Record<string, number>,
  after: Record<string, number>,
  mayStoreAnswer: boolean,
): string | undefined {
  const changed = Object.keys(before).filter((table) => {
    const delta = after[table] - before[table];
    return table === "idempotency_records" && mayStoreAnswer ? delta < 0 || delta > 1 : delta !== 0;
  });
  return changed.length > 0
    ? changed.map((table) => `${table} ${before[table]} → ${after[table]}`).join(", ")
    : undefined;
}

function describeRequest(request: FuzzRequest, keyKind: KeyKind): string {
  const key = keyKind === "wrong" ? `wrong key (${request.wrongAuthorization})` : `${keyKind} key`;
  const idempotency =
    request.idempotency.kind === "invalid"
      ? `invalid Idempotency-Key "${preview(request.idempotency.value, 30)}"`
      : `${request.idempotency.kind} Idempotency-Key`;
  const parts = [`${request.method} ${preview(request.target, 160)}`, key, idempotency];
  if (request.body) {
    parts.push(`Content-Type ${request.contentType ?? "(none)"}`, `${request.transport} transport`);
    parts.push(`body [${request.body.label}]: ${preview(request.body.bytes.toString("utf8"), 160)}`);
  }
  return parts.join(", ");
}

/** The findings grouped by kind, route, status and server message, with one request of each group. */
function report(dialect: string, findings: Finding[]): string {
  const groups = new Map<string, { finding: Finding; count: number }>();
  for (const finding of findings) {
    const key = [finding.kind, finding.route, finding.status, finding.detail.replace(/\d+/g, "#")].join("|");
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { finding, count: 1 });
  }
  const lines = [...groups.values()]
    .slice(0, 40)
    .map(
      ({ finding, count }) =>
        `- [${finding.kind}] ${finding.route} → ${finding.status} ×${count}: ${finding.detail}\n    e.g. ${finding.request}`,
    );
  return [
    `${findings.length} findings on ${dialect} in ${groups.size} groups (seed ${SEED}; replay with FUZZ_SEED=${SEED} npx vitest run test/api/fuzz.test.ts):`,
    ...lines,
    ...(groups.size > 40 ? [`… and ${groups.size - 40} more groups`] : []),
  ].join("\n");
}

function ok<T>(response: { status: number; text: string; body: T }): T {
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** Real resources to aim at: open quotes, confirmed plans, headless quotes, webhook endpoints, events, and another merchant's. */
async function createFixtures(t: TestApi): Promise<Fixtures> {
  const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
  const secret = apiClient(t.baseUrl, t.merchant.secretKey);
  const programId = t.merchant.programId;
  const confirm = async (client: ReturnType<typeof apiClient>, program: string) => {
    const { quote, token } = await createQuote(client, program);
    return ok(
      await client.post("/offers/confirm", {
        quoteId: quote.quoteId,
        quoteToken: token,
        order_context: orderContextFor(quote),
      }),
    );
  };

  // Separate quotes to confirm and to decline, so that a decline does not close every confirm's way to success.
  const openQuotes = (count: number) =>
    Promise.all(
      Array.from({ length: count }, () => createQuote(widget, programId, { customer_email: "buyer@example.com" })),
    );
  const [toConfirm, toDecline] = [await openQuotes(6), await openQuotes(3)];
  const plans = await Promise.all([1, 2, 3].map(() => confirm(widget, programId)));
  const headlessQuote = {
    order_amount_cents: 5_000,
    order_id: "fuzz-headless",
    protection_program_id: programId,
    currency: "EUR",
    product_category: "electronics",
  };
  const headlessQuotes = (count: number) =>
    Promise.all(
      Array.from(
        { length: count },
        async () =>
          ok(
            await secret.post("/headless/quote", {
              ...headlessQuote,
              order_id: `fuzz-headless-${crypto.randomUUID()}`,
            }),
          ).quote_id as string,
      ),
    );
  const [headlessToConfirm, headlessToDecline] = [await headlessQuotes(3), await headlessQuotes(2)];
  const endpointBody = { url: "https://hooks.example.test/fuzz", events: ["*"] };
  const endpoints = await Promise.all(
    [1, 2, 3].map(async () => ok(await secret.post("/webhooks/endpoints", endpointBody)).id as string),
  );
  const events = (ok(await secret.get("/events")).data as { id: string }[]).map((event) => event.id);
  const other = await t.createMerchant("Other Store");
  const othersPlan = await confirm(apiClient(t.baseUrl, other.publishableKey), other.programId);
  const times = ["2026-11-01T00:00:00Z", "2026-11-22T12:00:00.000+00:00", "2026-12-01T00:00:00Z"];

  return {
    params: {
      orderId: [...plans.map((plan) => plan.orderId), toConfirm[0].quote.orderId, othersPlan.orderId],
      merchantId: [t.merchant.merchantId, other.merchantId],
      purchaseId: [...plans.map((plan) => plan.planId), othersPlan.planId, events[0]],
      eventId: [...events.slice(0, 4), plans[0].planId],
      endpointId: [...endpoints, plans[0].planId],
    },
    bodies: {
      "POST /offers/quote": [
        {
          order_amount_cents: 10_000,
          order_id: "fuzz-order",
          protection_program_id: programId,
          currency: "USD",
          customer_email: "buyer@example.com",
        },
      ],
      "POST /offers/confirm": toConfirm.map(({ quote, token }) => ({
        quoteId: quote.quoteId,
        quoteToken: token,
        order_context: orderContextFor(quote),
      })),
      "POST /offers/decline": toDecline.map(({ quote }) => ({ quoteId: quote.quoteId, reason: "not needed" })),
      "POST /offers/void": plans.flatMap((plan) => [
        { planId: plan.planId, reason: "order cancelled" },
        { referenceNumber: plan.referenceNumber },
        { orderId: plan.orderId },
      ]),
      "POST /headless/quote": [{ ...headlessQuote, customer_email: "buyer@example.com" }],
      "POST /headless/confirm": headlessToConfirm.map((id) => ({ quote_id: id })),
      "POST /headless/decline": headlessToDecline.map((id) => ({ quote_id: id, reason: "not needed" })),
      "POST /events/:eventId/redeliver": endpoints.map((id) => ({ endpoint_id: id })),
      "POST /webhooks/endpoints": [endpointBody],
      "PATCH /webhooks/endpoints/:endpointId": [
        { url: "https://hooks.example.test/moved", events: [EVENT_TYPES[0]], status: "enabled" },
      ],
    },
    queryValues: {
      limit: ["1", "20", "100"],
      starting_after: [plans[0].planId, events[0], endpoints[0]],
      status: ["active", "voided", "submitted", "enabled"],
      order_id: [plans[0].orderId],
      reference_number: [plans[0].referenceNumber],
      type: [...EVENT_TYPES],
      created_gte: times,
      created_lt: times,
      from: times,
      to: times,
    },
  };
}
