// docs/api.md "Claim rules": approval without review has an amount per currency, in that currency's minor units, and a
// claim is decided against the amount of its own (its plan's) currency; a currency without an amount never approves
// on its own. Through the real HTTP API on SQLite and PostgreSQL: the program's terms saved as the dashboard saves
// them (updateProgram), claims filed in the buyer portal in USD, EUR, GBP, JPY and KWD, one plan and buyer per claim.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { buyerAddress } from "../support/api-assertions.ts";
import { protectOrderHeadless } from "../support/protection-flows.ts";
import { signIn } from "../support/portal.ts";
import { DEFAULT_CURRENCY_LIMITS, updateProgram } from "../../server/domain/programs.ts";
import { DomainError } from "../../server/domain/errors.ts";
import type { Currency } from "../../server/vocabulary/money.ts";

/** About $25 in each currency's minor units: 2,500 cents, euro cents and pence; ¥3,750; KWD 7.500. */
const LIMITS = { USD: 2_500, EUR: 2_500, GBP: 2_500, JPY: 3_750, KWD: 7_500 } as const;
const CURRENCIES = Object.keys(LIMITS) as (keyof typeof LIMITS)[];

describe.each(DIALECTS)("approval without review per currency (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  /** The dashboard's save of the program's terms: these currencies at their default limits, and these claim rules. */
  const saveTerms = (merchantId: string, currencies: readonly Currency[], claimRules: unknown) =>
    t.database.db.transaction((tx) =>
      updateProgram(
        tx,
        t.services,
        { merchantId, mode: "test", actor: { id: "mem_1", email: "owner@example.test" }, ip: "127.0.0.1" },
        {
          ratePercent: 3,
          productCategories: "",
          settlementPeriod: "weekly",
          currencies,
          currencyLimits: Object.fromEntries(currencies.map((each) => [each, DEFAULT_CURRENCY_LIMITS[each]])),
          claimRules,
        },
      ),
    );

  /** A "lost in transit" claim of `amountCents`, in the portal, on a new plan of an order of 100,000 minor units. */
  async function claimStatus(secretKey: string, programId: string, currency: Currency, amountCents: number) {
    const email = buyerAddress();
    const { confirmation } = await protectOrderHeadless(apiClient(t.baseUrl, secretKey), programId, {
      order_amount_cents: 100_000,
      currency,
      customer_email: email,
    });
    const { buyer } = await signIn(t, { email, referenceNumber: confirmation.reference_number as string });
    const filed = await buyer.post("/portal/claims", {
      referenceNumber: confirmation.reference_number,
      reason: "lost_in_transit",
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "Never came.",
      amountCents,
    });
    assert.equal(filed.status, 200, filed.text);
    return filed.body.status as string;
  }

  it("approves each currency's claims up to its own amount, and only its own", async () => {
    const merchant = await t.createMerchant("Five Currencies Store");
    await saveTerms(merchant.merchantId, CURRENCIES, {
      autoApprove: { maxAmountCentsByCurrency: LIMITS, reasons: ["lost_in_transit"] },
    });
    for (const currency of CURRENCIES) {
      const limit = LIMITS[currency];
      assert.equal(await claimStatus(merchant.secretKey, merchant.programId, currency, limit), "approved", currency);
      assert.equal(
        await claimStatus(merchant.secretKey, merchant.programId, currency, limit + 1),
        "submitted",
        currency,
      );
    }
    // ¥3,000 is within the yen's ¥3,750 though more than the 2,500 of the two-decimal currencies: about $20.
    assert.equal(await claimStatus(merchant.secretKey, merchant.programId, "JPY", 3_000), "approved");
  });

  it("a currency the rules name no amount in waits for a person, whatever the claim asks", async () => {
    const merchant = await t.createMerchant("Dollars Only Store");
    await saveTerms(merchant.merchantId, ["USD", "JPY", "KWD"], {
      autoApprove: { maxAmountCentsByCurrency: { USD: 2_500 }, reasons: ["lost_in_transit"] },
    });
    assert.equal(await claimStatus(merchant.secretKey, merchant.programId, "USD", 2_500), "approved");
    // 100 is ¥100 and KWD 0.100: once the one number approved them; now a person decides.
    assert.equal(await claimStatus(merchant.secretKey, merchant.programId, "JPY", 100), "submitted");
    assert.equal(await claimStatus(merchant.secretKey, merchant.programId, "KWD", 100), "submitted");
  });

  it("refuses an amount in a currency the program does not offer, or in no currency, and changes nothing", async () => {
    const merchant = await t.createMerchant("Refused Rules Store");
    const saved = { autoApprove: { maxAmountCentsByCurrency: { USD: 2_500 }, reasons: ["lost_in_transit"] } };
    await saveTerms(merchant.merchantId, ["USD", "EUR"], saved);
    const rulesNow = async () =>
      (
        await t.database.db.get<{ claim_rules: string }>("SELECT claim_rules FROM protection_programs WHERE id = ?", [
          merchant.programId,
        ])
      )?.claim_rules;
    const before = await rulesNow();
    const refusal = async (currencies: Currency[], claimRules: unknown) => {
      try {
        await saveTerms(merchant.merchantId, currencies, claimRules);
      } catch (error) {
        assert.ok(error instanceof DomainError);
        return [error.code, error.field, error.message];
      }
      assert.fail("accepted");
    };
    const rules = (maxAmountCentsByCurrency: unknown) => ({
      autoApprove: { maxAmountCentsByCurrency, reasons: ["lost_in_transit"] },
    });
    assert.deepEqual(await refusal(["USD", "EUR"], rules({ USD: 2_500, JPY: 3_750 })), [
      "parameter_invalid",
      "claimRules.autoApprove.maxAmountCentsByCurrency.JPY",
      "The program does not offer protection in JPY: choose JPY among its currencies or leave out its amount for approval without review.",
    ]);
    assert.deepEqual(await refusal(["USD", "EUR"], rules({})), [
      "parameter_invalid",
      "claimRules.autoApprove.maxAmountCentsByCurrency",
      "Claim rules: an amount in at least one currency (at autoApprove.maxAmountCentsByCurrency).",
    ]);
    assert.deepEqual((await refusal(["USD", "EUR"], rules({ EUR: 12.5 })))?.slice(0, 2), [
      "parameter_invalid",
      "claimRules.autoApprove.maxAmountCentsByCurrency.EUR",
    ]);
    assert.equal(await rulesNow(), before, "nothing changed");
  });
});
