// The 2027 rules for extension metafields: every [[extensions.metafields]] and [[extensions.targeting.metafields]]
// declaration names its owner_type (required from API 2027-01, or the deploy is blocked), and no extension uses
// checkout metafields (removed in 2026-04: cart metafields in checkout, order metafields in customer accounts).
// docs/shopify.md "Shopify's schema in npm test".
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { isEnumType } from "graphql";
import { parse as parseToml } from "smol-toml";
import { adminSchema } from "../support/shopify-schemas.ts";

const EXTENSIONS_DIR = path.resolve(import.meta.dirname, "../../extensions");

interface MetafieldDeclaration {
  namespace?: string;
  key?: string;
  owner_type?: string;
}

interface ExtensionConfig {
  api_version?: string;
  extensions?: {
    handle: string;
    metafields?: MetafieldDeclaration[];
    targeting?: { target: string; metafields?: MetafieldDeclaration[] }[];
  }[];
}

/**
 * The owner types a declaration may name: Shopify's MetafieldOwnerType (SHOP, PRODUCT, PRODUCTVARIANT, CUSTOMER,
 * ORDER, COMPANY, …) of the extension's API version, less the deprecated ones, plus CART — the checkout extension API
 * reads cart metafields, which the Admin enum does not list.
 */
function ownerTypes(version: string): Set<string> {
  const values = adminSchema(version).getType("MetafieldOwnerType");
  assert.ok(isEnumType(values), "the Admin schema has the MetafieldOwnerType enum");
  return new Set([...values.getValues().flatMap((value) => (value.deprecationReason ? [] : [value.name])), "CART"]);
}

/** What is wrong with a shopify.extension.toml's metafield declarations (empty when nothing is). */
function declarationProblems(config: ExtensionConfig): string[] {
  return (config.extensions ?? []).flatMap((extension) =>
    [
      ...(extension.metafields ?? []),
      ...(extension.targeting ?? []).flatMap((target) => target.metafields ?? []),
    ].flatMap(({ namespace, key, owner_type }) => {
      const name = `${extension.handle}: ${namespace}.${key}`;
      if (!owner_type) return [`${name} has no owner_type`];
      if (owner_type.toUpperCase() === "CHECKOUT") return [`${name} is a checkout metafield`];
      if (!config.api_version) return [`${name}: the extension has no api_version`];
      return ownerTypes(config.api_version).has(owner_type)
        ? []
        : [`${name}: owner_type ${owner_type} is not a metafield owner type`];
    }),
  );
}

const configs = fs
  .readdirSync(EXTENSIONS_DIR)
  .filter((dir) => fs.existsSync(path.join(EXTENSIONS_DIR, dir, "shopify.extension.toml")))
  .map((dir) => ({
    dir,
    config: parseToml(
      fs.readFileSync(path.join(EXTENSIONS_DIR, dir, "shopify.extension.toml"), "utf8"),
    ) as ExtensionConfig,
  }));

/** Every source file of every extension (what runs in checkout and customer accounts). */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "dist"].includes(entry.name) ? [] : sourceFiles(file);
    return /\.(tsx?|jsx?)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/** The checkout metafield API: its signal and its two change types (cart ones are updateCartMetafield and so on). */
const CHECKOUT_METAFIELD_API = /shopify\.metafields\b|["'](?:update|remove)Metafield["']/;

describe("extension metafield declarations (the 2027 rules)", () => {
  it("every declaration names an owner type and none is a checkout metafield", () => {
    assert.ok(configs.some(({ config }) => config.extensions?.some((extension) => extension.metafields?.length)));
    for (const { dir, config } of configs)
      if (config.extensions) assert.deepEqual(declarationProblems(config), [], dir);
  });

  it("refuses a declaration without owner_type, a checkout one, and an owner type Shopify does not have", () => {
    const config: ExtensionConfig = {
      api_version: "2026-10",
      extensions: [
        {
          handle: "offer",
          metafields: [
            { namespace: "$app:protection", key: "config" },
            { namespace: "$app:protection", key: "shop", owner_type: "SHOP" },
          ],
          targeting: [
            {
              target: "purchase.checkout.block.render",
              metafields: [
                { namespace: "$app:protection", key: "choice", owner_type: "CHECKOUT" },
                { namespace: "$app:protection", key: "plan", owner_type: "PLAN" },
              ],
            },
          ],
        },
      ],
    };
    assert.deepEqual(declarationProblems(config), [
      "offer: $app:protection.config has no owner_type",
      "offer: $app:protection.choice is a checkout metafield",
      "offer: $app:protection.plan: owner_type PLAN is not a metafield owner type",
    ]);
  });

  it("no extension reads or writes checkout metafields", () => {
    const users = configs
      .flatMap(({ dir }) => sourceFiles(path.join(EXTENSIONS_DIR, dir)))
      .filter((file) => CHECKOUT_METAFIELD_API.test(fs.readFileSync(file, "utf8")));
    assert.deepEqual(users, []);
    assert.ok(CHECKOUT_METAFIELD_API.test(`applyMetafieldChange({ type: "updateMetafield" })`));
    assert.ok(!CHECKOUT_METAFIELD_API.test(`applyMetafieldChange({ type: "updateCartMetafield" })`));
  });
});
