import fs from "node:fs";
import path from "node:path";
import type { Database } from "./store/database.ts";
import { sha256Hex } from "./domain/ids.ts";
import type { Services } from "./domain/context.ts";
import type { Actor } from "./vocabulary/actors.ts";
import { authenticateKey, createTestMerchant, mintKeyPair, type NewMerchant } from "./domain/merchants.ts";
import { merchantExists, revokeApiKeys } from "./store/merchants.ts";
import { firstProgramId, programBelongsTo } from "./store/programs.ts";
import { listClaims, prepareEvidence, releaseEvidence, submitClaim } from "./domain/claims.ts";
import { demoPhotoPng } from "./demo-photo.ts";
import { ensureStaffAccount, issueSignInLink } from "./domain/staff.ts";
import { requestMemberSignInLinks } from "./domain/members.ts";
import { insertMember } from "./store/members.ts";
import { approveClaim, resolveClaim } from "./domain/claim-decisions.ts";
import { closeEndedPeriods, listSettlements, periodContaining } from "./domain/settlements.ts";
import { settlementPeriodOf } from "./store/settlements.ts";
import { createProtectionApi } from "./api.ts";
import { createInProcessFetch } from "./in-process-fetch.ts";
import { API_BASE_PATH } from "./http/app.ts";
import type { Runtime } from "./runtime.ts";
import { DAY_MS, HOUR_MS } from "./vocabulary/time.ts";

const DEMO_MERCHANT_ID = "mer_demo";

/**
 * The test-mode demo merchant, created once. Keys are stored only as hashes, so the plaintext demo keys are
 * kept in a 0600 file in the data directory (one per database); if that file is lost, the demo merchant's
 * keys are revoked and new ones minted. Running this twice prints the same keys.
 */
export async function ensureDemoMerchant(
  db: Database,
  services: Services,
  dataDir: string,
  databaseUrl: string,
): Promise<NewMerchant> {
  const file = path.resolve(dataDir, `demo-merchant-${sha256Hex(databaseUrl).slice(0, 12)}.json`);
  const saved = readSaved(file);
  if (saved && (await stillValid(db, saved))) return saved;

  const demo = await db.transaction(async (tx) => {
    if (!(await merchantExists(tx, DEMO_MERCHANT_ID)))
      return createTestMerchant(tx, services, { id: DEMO_MERCHANT_ID, name: "Demo Store" });
    await revokeApiKeys(tx, DEMO_MERCHANT_ID, services.clock(), "test");
    const programId = await firstProgramId(tx, { merchantId: DEMO_MERCHANT_ID, mode: "test" });
    return {
      merchantId: DEMO_MERCHANT_ID,
      programId: programId!,
      ...(await mintKeyPair(tx, services, { merchantId: DEMO_MERCHANT_ID, mode: "test" })),
    };
  });
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify(demo), { mode: 0o600 });
  return demo;
}

function readSaved(file: string): NewMerchant | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as NewMerchant;
  } catch {
    return undefined;
  }
}

async function stillValid(db: Database, saved: NewMerchant): Promise<boolean> {
  const [publishable, secret] = await Promise.all([
    authenticateKey(db, saved.publishableKey, Date.now()),
    authenticateKey(db, saved.secretKey, Date.now()),
  ]);
  return (
    publishable?.merchantId === saved.merchantId &&
    secret?.merchantId === saved.merchantId &&
    (await programBelongsTo(db, saved.programId, saved.merchantId))
  );
}

/** The demo's protected sample order: what the merchant sees in the dashboard and the buyer in the portal. */
/** The sample buyer's order: `orderName` is the store's own name for it, which the portal's look-up also takes. */
export const DEMO_SAMPLE_ORDER = {
  orderId: "demo-order-1001",
  orderName: "#1001",
  email: "sample.buyer@example.com",
  amountCents: 12_999,
};

export interface DemoSample {
  orderId: string;
  email: string;
  referenceNumber: string;
  claimId: string;
}

/**
 * The demo merchant's sample order, protected by a real quote → confirm through the API (in process, with the demo's
 * publishable key, as the widget does) and with a buyer's claim filed on it; created once per database.
 */
export async function ensureDemoSample(
  runtime: Pick<Runtime, "db" | "services" | "api">,
  demo: NewMerchant,
): Promise<DemoSample> {
  const { orderId, email } = DEMO_SAMPLE_ORDER;
  const referenceNumber = await protectDemoOrder(runtime, demo, orderId);
  const actor = { merchantId: demo.merchantId, mode: "test" as const };
  const [filed] = (await listClaims(runtime.db, actor, { limit: 1, referenceNumber })).data;
  const claim = filed ?? (await fileDemoClaim(runtime, actor, referenceNumber));
  return { orderId, email, referenceNumber, claimId: claim.id };
}

/** A demo order: the merchant's id and name for it, its buyer and amount. */
interface DemoOrder {
  orderId: string;
  orderName: string;
  email: string;
  amountCents: number;
}

/** The demo order `orderId` of the sample buyer, protected once; resolves with its reference number. */
const protectDemoOrder = (runtime: Pick<Runtime, "services" | "api">, demo: NewMerchant, orderId: string) =>
  protectOrder(apiCaller(runtime.api), runtime.services, demo, { ...DEMO_SAMPLE_ORDER, orderId });

/**
 * The order protected once through the API `call` reaches (quote → confirm with the publishable key, as the widget
 * does; purchased at the clock's time); resolves with its reference number.
 */
async function protectOrder(call: ApiCaller, services: Services, demo: NewMerchant, order: DemoOrder): Promise<string> {
  const { orderId, email, amountCents, orderName } = order;
  const existing = await call<{ data: { referenceNumber: string }[] }>(
    "GET",
    `/purchases?order_id=${orderId}`,
    demo.secretKey,
  );
  let referenceNumber = existing.body.data[0]?.referenceNumber;
  if (!referenceNumber) {
    const quote = await call<{ quoteId: string }>("POST", "/offers/quote", demo.publishableKey, {
      order_amount_cents: amountCents,
      order_id: orderId,
      protection_program_id: demo.programId,
      customer_email: email,
      order_name: orderName,
    });
    const confirmation = await call<{ referenceNumber: string }>("POST", "/offers/confirm", demo.publishableKey, {
      quoteId: quote.body.quoteId,
      quoteToken: quote.headers.get("X-Service-Quote-Token"),
      order_context: {
        schema_version: "2026-01-01",
        order: {
          id: orderId,
          purchased_at: new Date(services.clock()).toISOString(),
          currency: "USD",
          covered_amount_cents: amountCents,
        },
        participants: { mode: "unnamed" },
      },
    });
    referenceNumber = confirmation.body.referenceNumber;
  }
  return referenceNumber;
}

/** A demo claim, with the buyer's photo of the parcel when the runtime keeps evidence (the claims console shows it). */
async function fileDemoClaim(runtime: Pick<Runtime, "db" | "services">, actor: Actor, referenceNumber: string) {
  const photo = { field: "evidence", index: 0, fileName: "parcel.png", bytes: demoPhotoPng() };
  const evidence = runtime.services.evidence ? await prepareEvidence(runtime.services, [photo]) : [];
  try {
    return await runtime.db.transaction((tx) =>
      submitClaim(
        tx,
        runtime.services,
        actor,
        {
          referenceNumber,
          reason: "damaged_in_transit",
          description: "The box arrived crushed and the left shoe is torn.",
        },
        // A seeding "session" per order: the photo counts against no buyer's quota, and a demo restarted many times
        // never fills one.
        { evidence, sessionId: `pss_demo_seed_${referenceNumber}` },
      ),
    );
  } finally {
    await releaseEvidence(evidence);
  }
}

/** The demo store's earlier trading, in the two settlement periods before the current one (docs/api.md "Settlement"). */
const DEMO_HISTORY_EMAIL = "earlier.buyer@example.com";

/**
 * Closed settlement statements for the demo merchant, so a newcomer can open one and download its CSV: two orders
 * protected in the period before last, then in the last period a third order, a refund report on the second and a
 * claim on the first approved and paid by the merchant, each through the API or the domain with the clock set back
 * to its time; then the ended periods are closed with the worker's own function. Done once: a merchant with a
 * statement already (this seed's, or a demo older than a period) is left as it is.
 */
export async function ensureDemoStatements(
  runtime: Pick<Runtime, "db" | "services" | "encryptionKey" | "logger">,
  demo: NewMerchant,
): Promise<void> {
  const actor = { merchantId: demo.merchantId, mode: "test" as const };
  const hasStatement = (await listSettlements(runtime.db, actor, { limit: 1 })).data.length > 0;
  if (hasStatement) return;
  const kind = await runtime.db.transaction((tx) => settlementPeriodOf(tx, actor));
  const current = periodContaining(kind, runtime.services.clock());
  const last = periodContaining(kind, current.start - 1);
  const beforeLast = periodContaining(kind, last.start - 1);
  // One clock for everything below, set to each step's time: the entries are stamped inside the past periods.
  let at = beforeLast.start;
  const services: Services = { ...runtime.services, clock: () => at };
  const call = apiCaller(
    createProtectionApi({ db: runtime.db, services, encryptionKey: runtime.encryptionKey, logger: runtime.logger }),
  );
  const order = (n: number, amountCents: number): DemoOrder => ({
    orderId: `demo-order-${n}`,
    orderName: `#${n}`,
    email: DEMO_HISTORY_EMAIL,
    amountCents,
  });

  at = beforeLast.start + DAY_MS + 10 * HOUR_MS;
  const claimed = await protectOrder(call, services, demo, order(901, 8_450));
  at = beforeLast.start + 3 * DAY_MS + 15 * HOUR_MS;
  await protectOrder(call, services, demo, order(902, 24_900));
  at = last.start + 9 * HOUR_MS;
  await protectOrder(call, services, demo, order(903, 5_600));
  at = last.start + DAY_MS + 11 * HOUR_MS;
  const [refunded] = (
    await call<{ data: { status: string }[] }>("GET", "/purchases?order_id=demo-order-902", demo.secretKey)
  ).body.data;
  if (refunded?.status === "active") await call("POST", "/orders/demo-order-902/refund", demo.secretKey, {});

  at = last.start + DAY_MS + 14 * HOUR_MS;
  const [filed] = (await listClaims(runtime.db, actor, { limit: 1, referenceNumber: claimed })).data;
  let claim = filed ?? (await fileDemoClaim({ db: runtime.db, services }, actor, claimed));
  at = last.start + 2 * DAY_MS + 10 * HOUR_MS;
  if (claim.status === "submitted" || claim.status === "under_review") {
    const id = claim.id;
    claim = await runtime.db.transaction(async (tx) => {
      const staff = await ensureStaffAccount(
        tx,
        runtime.services,
        { email: DEMO_OPS_EMAIL, role: "admin" },
        "npm run demo",
      );
      return approveClaim(tx, services, actor, id, { kind: "staff", staffId: staff.id }, {});
    });
  }
  at = last.start + 3 * DAY_MS + 16 * HOUR_MS;
  if (claim.status === "approved") {
    const id = claim.id;
    await runtime.db.transaction((tx) =>
      resolveClaim(tx, services, actor, id, { channel: "merchant", kind: "refund", reference: "refund-901" }),
    );
  }
  await closeEndedPeriods(runtime.db, runtime.services);
}

/** The claims team's demo admin, signed in by the link the demo prints. */
export const DEMO_OPS_EMAIL = "ops@demo.localhost";
/** The demo's printed sign-in link lasts a day — a demo-only lifetime; the console's own links last 15 minutes. */
export const DEMO_SIGN_IN_LINK_TTL_MS = DAY_MS;

/** A sign-in link the demo prints: whom it signs in, its token, and when it stops working (ms since the epoch). */
export interface DemoSignIn {
  email: string;
  token: string;
  expiresAt: number;
}
const WAITING_STATUSES = ["submitted", "under_review", "needs_information"] as const;

/**
 * What the demo's claims console needs: the admin account, a claim waiting for a decision (when a newcomer decided
 * the sample's claim in an earlier run, another demo order is protected and a claim filed on it), and a sign-in link
 * (its token, for the printed URL).
 */
export async function ensureDemoConsole(
  runtime: Pick<Runtime, "db" | "services" | "api">,
  demo: NewMerchant,
): Promise<DemoSignIn & { claimId: string }> {
  const actor = { merchantId: demo.merchantId, mode: "test" as const };
  let waiting: string | undefined;
  for (const status of WAITING_STATUSES)
    waiting ??= (await listClaims(runtime.db, actor, { limit: 1, status })).data[0]?.id;
  if (!waiting) {
    const count = (await listClaims(runtime.db, actor, { limit: 100 })).data.length;
    const referenceNumber = await protectDemoOrder(runtime, demo, `demo-order-${1001 + count}`);
    waiting = (await fileDemoClaim(runtime, actor, referenceNumber)).id;
  }
  const link = await runtime.db.transaction(async (tx) => {
    const staff = await ensureStaffAccount(
      tx,
      runtime.services,
      { email: DEMO_OPS_EMAIL, role: "admin" },
      "npm run demo",
    );
    return issueSignInLink(tx, runtime.services, staff, DEMO_SIGN_IN_LINK_TTL_MS);
  });
  return { email: DEMO_OPS_EMAIL, token: link.token, expiresAt: link.expiresAt, claimId: waiting };
}

/** The demo merchant's dashboard owner, signed in by the link the demo prints. */
export const DEMO_OWNER_EMAIL = "owner@demo.localhost";

/** The demo merchant's standalone dashboard: its owner (made once) and a sign-in link that lasts the demo's day. */
export async function ensureDemoDashboard(
  runtime: Pick<Runtime, "db" | "services">,
  demo: NewMerchant,
): Promise<DemoSignIn> {
  const [link] = await runtime.db.transaction(async (tx) => {
    const now = runtime.services.clock();
    await insertMember(tx, {
      id: `mem_demo_${demo.merchantId}`,
      merchantId: demo.merchantId,
      email: DEMO_OWNER_EMAIL,
      name: "Demo owner",
      role: "owner",
      status: "invited",
      invitedBy: null,
      createdAt: now,
    });
    return requestMemberSignInLinks(tx, runtime.services, { email: DEMO_OWNER_EMAIL }, DEMO_SIGN_IN_LINK_TTL_MS);
  });
  return { email: DEMO_OWNER_EMAIL, token: link.token, expiresAt: link.expiresAt };
}

type ApiCaller = ReturnType<typeof apiCaller>;

/** JSON calls to the API's own handler (no socket): the demo seeds through the same path a merchant's server takes. */
function apiCaller(api: Pick<Runtime["api"], "fetch">) {
  const inProcessFetch = createInProcessFetch(api);
  return async <T>(method: string, path: string, key: string, body?: unknown) => {
    const response = await inProcessFetch(`http://in-process${API_BASE_PATH}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined
          ? {}
          : { "Content-Type": "application/json", "Idempotency-Key": `demo-seed-${crypto.randomUUID()}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`demo seed: ${method} ${path} answered ${response.status}: ${await response.text()}`);
    return { body: (await response.json()) as T, headers: response.headers };
  };
}
