// The names the storefront surfaces and the app must spell alike: a change here is a change of the contract with
// every installed theme embed, checkout extension and order already placed.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  ACCEPTED,
  CHOICE_ATTRIBUTE,
  CONFIG_KEY,
  CONFIG_NAMESPACE,
  DECLINED,
  QUOTE_ATTRIBUTE,
  REFERENCE_ATTRIBUTE,
  SHOP_CONFIG_NAMESPACE,
} from "@purchase-protection/contract";

describe("storefront contract names", () => {
  it("cart attributes are the underscored ones themes hide", () => {
    assert.deepEqual(
      [CHOICE_ATTRIBUTE, QUOTE_ATTRIBUTE, REFERENCE_ATTRIBUTE],
      ["_protection", "_protection_quote", "_protection_reference"],
    );
    assert.deepEqual([ACCEPTED, DECLINED], ["accepted", "declined"]);
  });

  it("the config metafield is protection/config on the installation and $app:protection/config on the shop", () => {
    assert.deepEqual(
      [CONFIG_NAMESPACE, SHOP_CONFIG_NAMESPACE, CONFIG_KEY],
      ["protection", "$app:protection", "config"],
    );
  });
});
