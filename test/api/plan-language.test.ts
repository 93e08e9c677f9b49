// docs/api.md "E-mail to buyers": a confirm records the buyer's language and time zone with the plan (customer_locale,
// customer_time_zone, on /offers/confirm and /headless/confirm), kept only when its language is served, canonical, and
// shown on the purchase (customerLocale, customerTimeZone); a value that is not a language tag or a time zone is 400
// parameter_invalid and changes nothing. On SQLite and PostgreSQL.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote } from "../support/api-assertions.ts";
import { confirmBody, type ApiClient } from "../support/protection-flows.ts";
import type { HeadlessQuote } from "../../packages/sdk/src/responses.ts";

describe.each(DIALECTS)("the plan's language (%s)", (dialect) => {
  let t: TestApi;
  let widget: ApiClient;
  let secret: ApiClient;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(() => t.close());

  const planLanguageOf = (planId: string) =>
    t.database.db.get<{ locale: string | null; time_zone: string | null }>(
      "SELECT locale, time_zone FROM plans WHERE id = ?",
      [planId],
    );
  const headlessQuote = async () => {
    const quote = await secret.post<HeadlessQuote>("/headless/quote", {
      order_amount_cents: 10_000,
      order_id: `order-${crypto.randomUUID()}`,
      protection_program_id: t.merchant.programId,
      customer_email: "lea@example.com",
    });
    assert.equal(quote.status, 200, quote.text);
    return quote.body.quote_id;
  };
  /** Confirms through the storefront's path with `fields` beside the usual body; the plan's id and its purchase. */
  async function confirmOnPage(fields: Record<string, unknown>) {
    const { quote, token } = await createQuote(widget, t.merchant.programId, { customer_email: "lea@example.com" });
    const confirmed = await widget.post<{ planId: string }>("/offers/confirm", {
      ...confirmBody(quote, token),
      ...fields,
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    return confirmed.body.planId;
  }

  it("/headless/confirm keeps the locale and time zone given, and GET /purchases/{id} shows them", async () => {
    const confirmed = await secret.post<{ plan_id: string }>("/headless/confirm", {
      quote_id: await headlessQuote(),
      customer_locale: "fr-FR",
      customer_time_zone: "Europe/Paris",
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.deepEqual(await planLanguageOf(confirmed.body.plan_id), { locale: "fr-FR", time_zone: "Europe/Paris" });
    const purchase = await secret.get<{ customerLocale: string | null; customerTimeZone: string | null }>(
      `/purchases/${confirmed.body.plan_id}`,
    );
    assert.equal(purchase.status, 200, purchase.text);
    assert.equal(purchase.body.customerLocale, "fr-FR");
    assert.equal(purchase.body.customerTimeZone, "Europe/Paris");
  });

  it("/offers/confirm keeps a served language in canonical form; an unserved one, or none, is English (null), as is no zone", async () => {
    const canonical = await confirmOnPage({ customer_locale: "de_de", customer_time_zone: "america/new_york" });
    assert.deepEqual(await planLanguageOf(canonical), { locale: "de-DE", time_zone: "America/New_York" });
    const unserved = await confirmOnPage({ customer_locale: "ja-JP" });
    assert.deepEqual(await planLanguageOf(unserved), { locale: null, time_zone: null });
    const pseudo = await confirmOnPage({ customer_locale: "en-XA" });
    assert.deepEqual(await planLanguageOf(pseudo), { locale: null, time_zone: null }, "never the pseudo-locale");
    const none = await confirmOnPage({});
    assert.deepEqual(await planLanguageOf(none), { locale: null, time_zone: null });
    const purchase = await secret.get<{ customerLocale: string | null; customerTimeZone: string | null }>(
      `/purchases/${none}`,
    );
    assert.equal(purchase.body.customerLocale, null);
    assert.equal(purchase.body.customerTimeZone, null);
  });

  it("the consent record keeps the disclosure in the language the buyer confirmed in", async () => {
    const disclosureOf = async (planId: string) =>
      (await secret.get<{ consent: { disclosureText: string } }>(`/purchases/${planId}`)).body.consent.disclosureText;
    assert.match(
      await disclosureOf(await confirmOnPage({ customer_locale: "fr-FR" })),
      /^Ceci n’est pas une assurance\. /,
    );
    assert.match(await disclosureOf(await confirmOnPage({ customer_locale: "de" })), /^Dies ist keine Versicherung\. /);
    assert.match(await disclosureOf(await confirmOnPage({})), /^This is not insurance\. /);
  });

  for (const [field, value] of [
    ["customer_locale", "not a language!"],
    ["customer_locale", ""],
    ["customer_time_zone", "Mars/Olympus_Mons"],
    ["customer_time_zone", 42],
  ] as const) {
    it(`${field} ${JSON.stringify(value)}: 400 parameter_invalid naming it on both confirms; nothing is made, the quotes stay open`, async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId, { customer_email: "lea@example.com" });
      const onPage = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/confirm", { ...confirmBody(quote, token), [field]: value }),
      );
      assertError(onPage, { status: 400, code: "parameter_invalid", param: field });
      const quoteId = await headlessQuote();
      const headless = await assertChangesNothing(t.database.db, () =>
        secret.post("/headless/confirm", { quote_id: quoteId, [field]: value }),
      );
      assertError(headless, { status: 400, code: "parameter_invalid", param: field });
      // Both quotes can still be confirmed.
      const retried = await widget.post("/offers/confirm", confirmBody(quote, token));
      assert.equal(retried.status, 200, retried.text);
      assert.equal((await secret.post("/headless/confirm", { quote_id: quoteId })).status, 200);
    });
  }
});
