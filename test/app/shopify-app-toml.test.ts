// shopify.app.toml and the code agree: every topic Shopify is told to send has a handler and every handled topic is
// subscribed, at /webhooks/<topic>; the webhooks' API version is the Admin API version the app calls; the access
// scopes cover what the Admin API operations need.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { HANDLED_TOPICS } from "../../app/shopify/webhooks/topics.ts";
import { SHOPIFY_API_VERSION } from "../../app/shopify.server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The parts of shopify.app.toml checked here. */
interface AppConfig {
  webhooks: { api_version: string; subscriptions: { uri: string; topics?: string[]; compliance_topics?: string[] }[] };
  access_scopes: { scopes: string };
}
const config = parse(fs.readFileSync(path.join(ROOT, "shopify.app.toml"), "utf8")) as unknown as AppConfig;

describe("shopify.app.toml", () => {
  it("subscribes exactly the topics the app handles, each at /webhooks/<topic>", () => {
    const subscriptions: { topic: string; uri: string }[] = config.webhooks.subscriptions.flatMap((subscription) =>
      [...(subscription.topics ?? []), ...(subscription.compliance_topics ?? [])].map((topic) => ({
        topic,
        uri: subscription.uri,
      })),
    );
    assert.deepEqual(subscriptions.map((subscription) => subscription.topic).sort(), [...HANDLED_TOPICS].sort());
    for (const { topic, uri } of subscriptions) assert.equal(uri, `/webhooks/${topic}`);
    const compliance = config.webhooks.subscriptions
      .flatMap((subscription) => subscription.compliance_topics ?? [])
      .sort();
    assert.deepEqual(
      compliance,
      ["customers/data_request", "customers/redact", "shop/redact"],
      "Shopify's three mandatory privacy topics",
    );
  });

  it("webhooks use the Admin API version the app calls", () => {
    assert.equal(config.webhooks.api_version, SHOPIFY_API_VERSION);
  });

  it("asks for the scopes the Admin API operations need, and no more", () => {
    assert.deepEqual(config.access_scopes.scopes.split(",").sort(), [
      "read_draft_orders",
      "read_fulfillments",
      "read_merchant_managed_fulfillment_orders",
      "read_orders",
      "read_products",
      "read_publications",
      "read_validations",
      "write_draft_orders",
      "write_merchant_managed_fulfillment_orders",
      "write_orders",
      "write_products",
      "write_publications",
      "write_validations",
    ]);
  });
});
