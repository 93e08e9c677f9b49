import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "../../test/support/databases.ts";
import { createTestMerchant, type NewMerchant } from "./merchants.ts";
import { createQuote, declineQuote, priceOffer, type KeyedActor } from "./quotes.ts";
import { confirmQuote } from "./plans.ts";
import { DomainError } from "./errors.ts";
import { cryptoRandom } from "./ids.ts";
import { QUOTE_LIFETIME_MS } from "./disclosure.ts";
import type { Services, Tx } from "./context.ts";
import { storeBuyerEmail } from "./buyer-emails.ts";
import { createSealer } from "../secrets/sealer.ts";

describe("priceOffer", () => {
  const program = {
    rateBps: 300,
    currencyLimits: {
      USD: { minFeeCents: 100, maxCoveredCents: 500_000 },
      JPY: { minFeeCents: 150, maxCoveredCents: 750_000 },
      KWD: { minFeeCents: 300, maxCoveredCents: 1_500_000 },
    },
  };

  it("charges the rate of the covered amount, rounded half up", () => {
    assert.deepEqual(priceOffer(program, "USD", 12_999), { coveredAmountCents: 12_999, feeCents: 390 });
    assert.deepEqual(priceOffer(program, "USD", 4_150), { coveredAmountCents: 4_150, feeCents: 125 });
    assert.deepEqual(priceOffer(program, "USD", 4_149), { coveredAmountCents: 4_149, feeCents: 124 });
  });

  it("charges at least the minimum fee", () => {
    assert.deepEqual(priceOffer(program, "USD", 1), { coveredAmountCents: 1, feeCents: 100 });
    assert.deepEqual(priceOffer(program, "USD", 3_349), { coveredAmountCents: 3_349, feeCents: 100 });
    assert.deepEqual(priceOffer(program, "USD", 3_350), { coveredAmountCents: 3_350, feeCents: 101 });
  });

  it("covers at most the program's maximum and prices only what it covers", () => {
    assert.deepEqual(priceOffer(program, "USD", 500_000), { coveredAmountCents: 500_000, feeCents: 15_000 });
    assert.deepEqual(priceOffer(program, "USD", 2_000_000), { coveredAmountCents: 500_000, feeCents: 15_000 });
  });

  it("prices each currency under its own limits, in its own minor units", () => {
    // ¥4,999 × 3 % = ¥149.97 → ¥150, the minimum; ¥5,017 × 3 % = ¥150.51 → ¥151; over ¥750,000 covered up to it.
    assert.deepEqual(priceOffer(program, "JPY", 4_999), { coveredAmountCents: 4_999, feeCents: 150 });
    assert.deepEqual(priceOffer(program, "JPY", 5_017), { coveredAmountCents: 5_017, feeCents: 151 });
    assert.deepEqual(priceOffer(program, "JPY", 800_000), { coveredAmountCents: 750_000, feeCents: 22_500 });
    // KWD 12.345 (12,345 fils) × 3 % = 370.35 → 0.370; KWD 9.999 × 3 % = 0.29997 → 0.300, the minimum.
    assert.deepEqual(priceOffer(program, "KWD", 12_345), { coveredAmountCents: 12_345, feeCents: 370 });
    assert.deepEqual(priceOffer(program, "KWD", 9_999), { coveredAmountCents: 9_999, feeCents: 300 });
    // USD 100 cents at the same amount: its own minimum of $1.00 and no other's.
    assert.deepEqual(priceOffer(program, "USD", 9_999), { coveredAmountCents: 9_999, feeCents: 300 });
    assert.deepEqual(priceOffer(program, "USD", 1_000), { coveredAmountCents: 1_000, feeCents: 100 });
  });
});

describe("quote states (sqlite)", () => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  let other: NewMerchant;
  let now = Date.parse("2026-11-22T12:00:00.000Z");
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Guarantor Inc.", portalUrl: "https://portal.example" },
  };
  const widget = (m: NewMerchant): KeyedActor => ({ merchantId: m.merchantId, mode: "test", kind: "publishable" });
  const server = (m: NewMerchant): KeyedActor => ({ merchantId: m.merchantId, mode: "test", kind: "secret" });
  let orders = 0;
  const sealer = createSealer(randomBytes(32));

  const inTx = <T>(work: (tx: Tx) => Promise<T>) => database.db.transaction(work);
  const quoteFor = (actor: KeyedActor, m: NewMerchant) =>
    inTx((tx) =>
      createQuote(tx, services, actor, {
        orderAmountCents: 12_999,
        orderId: `order-${++orders}`,
        programId: m.programId,
        currency: "USD",
        customerEmail: storeBuyerEmail(sealer, `buyer-${orders}@example.com`),
      }),
    );
  const confirmOnServer = (actor: KeyedActor, quoteId: string) =>
    inTx((tx) => confirmQuote(tx, services, actor, { surface: "server", quoteId }));
  const decline = (actor: KeyedActor, quoteId: string) =>
    inTx((tx) => declineQuote(tx, services, actor, quoteId, "not today"));
  const statusOf = async (quoteId: string) =>
    (await database.db.get<{ status: string }>("SELECT status FROM quotes WHERE id = ?", [quoteId]))?.status;

  async function assertRefused(
    work: Promise<unknown>,
    expected: { kind: DomainError["kind"]; code: string; field?: string },
  ) {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof DomainError, String(error));
    assert.deepEqual({ kind: error.kind, code: error.code, field: error.field }, { field: undefined, ...expected });
  }

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Shop" }));
    other = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Neighbour" }));
  });
  afterAll(() => database.drop());

  it("a new quote is open, priced by the program", async () => {
    const { quote, token } = await quoteFor(widget(merchant), merchant);
    assert.equal(quote.status, "open");
    assert.equal(quote.feeCents, 390);
    assert.ok(token.length > 0);
    assert.equal(await statusOf(quote.quoteId), "open");
  });

  it("open → confirmed, once: a second confirm or a decline is quote_already_used", async () => {
    const { quote } = await quoteFor(server(merchant), merchant);
    const confirmation = await confirmOnServer(server(merchant), quote.quoteId);
    assert.equal(confirmation.status, "confirmed");
    assert.equal(await statusOf(quote.quoteId), "confirmed");
    await assertRefused(confirmOnServer(server(merchant), quote.quoteId), {
      kind: "conflict",
      code: "quote_already_used",
      field: "quoteId",
    });
    await assertRefused(decline(server(merchant), quote.quoteId), {
      kind: "conflict",
      code: "quote_already_used",
      field: "quoteId",
    });
  });

  it("open → declined, once: a confirm or a second decline is quote_declined", async () => {
    const { quote } = await quoteFor(widget(merchant), merchant);
    const declined = await decline(widget(merchant), quote.quoteId);
    assert.deepEqual({ status: declined.status, reason: declined.reason }, { status: "declined", reason: "not today" });
    assert.equal(await statusOf(quote.quoteId), "declined");
    await assertRefused(confirmOnServer(server(merchant), quote.quoteId), {
      kind: "conflict",
      code: "quote_declined",
      field: "quoteId",
    });
    await assertRefused(decline(widget(merchant), quote.quoteId), {
      kind: "conflict",
      code: "quote_declined",
      field: "quoteId",
    });
  });

  it("expires after its lifetime: confirmable 1 ms before, quote_expired from then on", async () => {
    const early = await quoteFor(server(merchant), merchant);
    const late = await quoteFor(server(merchant), merchant);
    now += QUOTE_LIFETIME_MS - 1;
    await confirmOnServer(server(merchant), early.quote.quoteId);
    now += 1;
    await assertRefused(confirmOnServer(server(merchant), late.quote.quoteId), {
      kind: "conflict",
      code: "quote_expired",
      field: "quoteId",
    });
    await assertRefused(decline(server(merchant), late.quote.quoteId), {
      kind: "conflict",
      code: "quote_expired",
      field: "quoteId",
    });
    assert.equal(await statusOf(late.quote.quoteId), "open");
  });

  it("another merchant's quote, or the server's quote to the page's key, is reported as not found", async () => {
    const { quote: theirs } = await quoteFor(widget(other), other);
    await assertRefused(confirmOnServer(server(merchant), theirs.quoteId), {
      kind: "not_found",
      code: "resource_missing",
      field: "quoteId",
    });
    await assertRefused(decline(widget(merchant), theirs.quoteId), {
      kind: "not_found",
      code: "resource_missing",
      field: "quoteId",
    });
    const { quote: serverMade } = await quoteFor(server(merchant), merchant);
    await assertRefused(decline(widget(merchant), serverMade.quoteId), {
      kind: "not_found",
      code: "resource_missing",
      field: "quoteId",
    });
    assert.equal(await statusOf(theirs.quoteId), "open");
    assert.equal(await statusOf(serverMade.quoteId), "open");
  });

  it("the quote token is checked before the state: a wrong one is quote_token_invalid even for a used quote", async () => {
    const { quote } = await quoteFor(widget(merchant), merchant);
    await decline(widget(merchant), quote.quoteId);
    await assertRefused(
      inTx((tx) =>
        confirmQuote(tx, services, widget(merchant), {
          surface: "widget",
          quoteId: quote.quoteId,
          quoteToken: "wrong",
          orderContext: {},
        }),
      ),
      { kind: "forbidden", code: "quote_token_invalid", field: "quoteToken" },
    );
  });

  it("a quote needs a supported currency and the merchant's own program", async () => {
    const input = { orderAmountCents: 100, orderId: "order-x", programId: merchant.programId };
    await assertRefused(
      inTx((tx) => createQuote(tx, services, server(merchant), { ...input, currency: "XYZ" })),
      { kind: "invalid", code: "currency_unsupported", field: "currency" },
    );
    await assertRefused(
      inTx((tx) =>
        createQuote(tx, services, server(merchant), { ...input, currency: "USD", programId: other.programId }),
      ),
      {
        kind: "not_found",
        code: "resource_missing",
        field: "programId",
      },
    );
  });
});
