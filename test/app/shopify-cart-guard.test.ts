// The card-testing guard installed on the shop (app/shopify/cart-guard.server.ts) through the app's real wiring: the
// storefront setup job, after install, creates the validation of the guard's Function by its handle, once; a later
// setup (go live, a program change) finds it and leaves it as it is, switched off by the merchant included; another
// app's Function of the same handle is not ours; and a shop where Shopify refuses it says why on the job.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { FAKE_APP_ID, variablesOf, type FakeValidation } from "../support/shopify.ts";
import { startShopifyApp, type ShopifyAppHarness } from "../support/shopify-app.ts";

const SHOP = "guarded-goods.myshopify.com";
const OTHER_APPS_SHOP = "shared-handle.myshopify.com";
const FULL_SHOP = "many-rules.myshopify.com";
const OTHER_APP_ID = "gid://shopify/App/777";
const EXTENSION_TOML = path.resolve(
  import.meta.dirname,
  "../../extensions/protection-cart-guard/shopify.extension.toml",
);

// One shop's history: each test reads what the ones before it left (Admin calls, jobs, rows since the install).
describe("the card-testing guard on a shop", { shuffle: false }, () => {
  let app: ShopifyAppHarness;
  let guardHandle: string;
  beforeAll(async () => {
    app = await startShopifyApp({ dialect: "sqlite", shops: [SHOP, OTHER_APPS_SHOP, FULL_SHOP] });
    ({ CART_GUARD_FUNCTION_HANDLE: guardHandle } = await import("../../app/shopify/cart-guard.server.ts"));
  });
  afterAll(() => app?.close());

  const otherAppsValidation = (shop: string, functionHandle: string, index: number): FakeValidation => ({
    id: `gid://shopify/Validation/${shop}-${index}`,
    shop,
    functionHandle,
    appId: OTHER_APP_ID,
    enabled: true,
    blockOnFailure: false,
    title: `Another app's rule ${index}`,
  });
  const validationsOf = (shop: string) => app.admin.validations.filter((validation) => validation.shop === shop);
  const createCalls = (shop: string) =>
    app.admin.calls.filter((call) => call.shop === shop && call.operationName === "CreateCartGuardValidation");
  async function setUpStorefrontAgain(shop: string) {
    const { resyncStorefront } = await import("../../app/shopify/go-live.server.ts");
    await resyncStorefront(app.runtime().deps, shop);
    await app.settled();
  }

  it("names the Function by the handle its extension declares", () => {
    const config = parseToml(fs.readFileSync(EXTENSION_TOML, "utf8")) as { extensions: { handle: string }[] };
    assert.equal(guardHandle, config.extensions[0].handle);
  });

  it("install creates the validation, on and not blocking checkout when the guard itself fails", async () => {
    await app.install(SHOP);
    assert.deepEqual(
      validationsOf(SHOP).map(({ functionHandle, appId, enabled, blockOnFailure }) => ({
        functionHandle,
        appId,
        enabled,
        blockOnFailure,
      })),
      [{ functionHandle: guardHandle, appId: FAKE_APP_ID, enabled: true, blockOnFailure: false }],
    );
    const [create] = createCalls(SHOP);
    assert.equal(create.accessToken, `shpat_${SHOP}`, "called with the shop's offline token");
    assert.equal(variablesOf(create, "CreateCartGuardValidation").validation.functionHandle, guardHandle);
  });

  it("a later storefront setup finds it and changes nothing, even when the merchant switched it off", async () => {
    await setUpStorefrontAgain(SHOP);
    assert.equal(createCalls(SHOP).length, 1);
    validationsOf(SHOP)[0].enabled = false;
    await setUpStorefrontAgain(SHOP);
    assert.equal(createCalls(SHOP).length, 1);
    assert.deepEqual(
      validationsOf(SHOP).map((validation) => validation.enabled),
      [false],
    );
  });

  it("another app's Function of the same handle is not the guard", async () => {
    app.admin.validations.push(otherAppsValidation(OTHER_APPS_SHOP, guardHandle, 0));
    await app.install(OTHER_APPS_SHOP);
    assert.deepEqual(
      validationsOf(OTHER_APPS_SHOP)
        .map((validation) => validation.appId)
        .sort(),
      [FAKE_APP_ID, OTHER_APP_ID],
    );
  });

  it("a shop with 25 active validations: Shopify's refusal is the storefront setup's error, the product is still set up", async () => {
    for (let index = 0; index < 25; index++)
      app.admin.validations.push(otherAppsValidation(FULL_SHOP, `rule-${index}`, index));
    await app.install(FULL_SHOP);
    assert.equal(createCalls(FULL_SHOP).length, 1);
    assert.ok(validationsOf(FULL_SHOP).every((validation) => validation.appId === OTHER_APP_ID));
    const db = app.database.db;
    const job = await db.get<{ status: string; last_error: string | null }>(
      "SELECT status, last_error FROM shopify_jobs WHERE shop = ? AND kind = 'storefront_setup'",
      [FULL_SHOP],
    );
    assert.equal(job?.status, "pending", "retried: the merchant may switch another rule off");
    assert.match(job?.last_error ?? "", /MAX_VALIDATIONS_ACTIVATED/);
    const installation = await db.get<{ product_id: string | null }>(
      "SELECT product_id FROM shop_installations WHERE shop = ?",
      [FULL_SHOP],
    );
    assert.ok(installation?.product_id, "the protection product and its tiers were saved before");
  });
});
