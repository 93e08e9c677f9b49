// Every GraphQL document the app sends Shopify is valid against Shopify's published schema of the version it is sent
// at, with deprecated fields, arguments and enum values refused: each Admin operation app/shopify/admin/ exports,
// against the Admin schema of SHOPIFY_API_VERSION, and each Function's input query (named by its extension's
// shopify.extension.toml), against the Functions API that runs its target at the extension's api_version. Found
// mechanically, so a new operation file or Function is covered without editing this test. The fake Admin API answers
// whatever it is asked; this is what notices drift (docs/shopify.md "Shopify's schema in npm test").
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Kind, parse as parseGraphql } from "graphql";
import { parse as parseToml } from "smol-toml";
import type { AdminOperation } from "../../app/shopify/admin/graphql.ts";
import { SHOPIFY_API_VERSION } from "../../app/shopify.server.ts";
import { adminSchema, functionsSchemaForTarget, schemaErrors } from "../support/shopify-schemas.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ADMIN_DIR = path.join(ROOT, "app/shopify/admin");
const EXTENSIONS_DIR = path.join(ROOT, "extensions");

const isAdminOperation = (value: unknown): value is AdminOperation<object | void, unknown> =>
  typeof value === "function" && typeof (value as { document?: unknown }).document === "string";

/** Each operation file (graphql.ts is the client they share) with the documents of the operations it exports. */
const operationFiles = await Promise.all(
  fs
    .readdirSync(ADMIN_DIR)
    .filter((file) => file.endsWith(".ts") && file !== "graphql.ts")
    .sort()
    .map(async (file) => {
      const exports = (await import(pathToFileURL(path.join(ADMIN_DIR, file)).href)) as Record<string, unknown>;
      const documents = Object.values(exports)
        .filter(isAdminOperation)
        .map((operation) => operation.document);
      return { file, source: fs.readFileSync(path.join(ADMIN_DIR, file), "utf8"), documents };
    }),
);

/** The parts of a shopify.extension.toml that locate a Function's input query. */
interface ExtensionConfig {
  api_version?: string;
  extensions?: { handle: string; targeting?: { target: string; input_query?: string }[] }[];
}

/** Every input query a Function extension declares ([[extensions.targeting]] input_query), with its API version. */
const inputQueries = fs
  .readdirSync(EXTENSIONS_DIR)
  .filter((dir) => fs.existsSync(path.join(EXTENSIONS_DIR, dir, "shopify.extension.toml")))
  .flatMap((dir) => {
    const config = parseToml(
      fs.readFileSync(path.join(EXTENSIONS_DIR, dir, "shopify.extension.toml"), "utf8"),
    ) as ExtensionConfig;
    return (config.extensions ?? []).flatMap((extension) =>
      (extension.targeting ?? []).flatMap(({ target, input_query }) =>
        input_query
          ? [{ handle: extension.handle, target, file: path.join(dir, input_query), version: config.api_version }]
          : [],
      ),
    );
  });

/** Names of the operations written in a file's source, as template literals. */
const namesInSource = (source: string) =>
  [...source.matchAll(/`\s*(?:query|mutation)\s+(\w+)/g)].map((match) => match[1]);
/** Names of the operations a document defines. */
const namesInDocument = (document: string) =>
  parseGraphql(document).definitions.flatMap((definition) =>
    definition.kind === Kind.OPERATION_DEFINITION ? [definition.name?.value ?? "(anonymous)"] : [],
  );

describe(`Admin API operations against Shopify's published Admin schema (${SHOPIFY_API_VERSION})`, () => {
  it("every operation file exports each operation it writes, so none escapes validation", () => {
    assert.ok(operationFiles.length > 0);
    for (const { file, source, documents } of operationFiles) {
      assert.ok(documents.length > 0, `${file} exports an adminOperation`);
      assert.deepEqual(documents.flatMap(namesInDocument).sort(), namesInSource(source).sort(), file);
    }
  });

  for (const { file, documents } of operationFiles) {
    it(`${file} is valid, using nothing deprecated`, () => {
      const schema = adminSchema(SHOPIFY_API_VERSION);
      for (const document of documents) assert.deepEqual(schemaErrors(schema, document), [], document);
    });
  }
});

describe("Function input queries against Shopify's published Functions schemas", () => {
  for (const { handle, target, file, version } of inputQueries) {
    it(`${handle} (${target}): ${file} is valid, using nothing deprecated`, () => {
      assert.ok(version, `${handle}: shopify.extension.toml sets api_version`);
      assert.ok(fs.existsSync(path.join(EXTENSIONS_DIR, file)), `${file} exists`);
      const { schema } = functionsSchemaForTarget(target, version);
      assert.deepEqual(schemaErrors(schema, fs.readFileSync(path.join(EXTENSIONS_DIR, file), "utf8")), []);
    });
  }
});

describe("the check fails on drift", () => {
  it("refuses an unknown field and a deprecated field, argument and enum value in an Admin operation", () => {
    const errors = schemaErrors(
      adminSchema(SHOPIFY_API_VERSION),
      `query Drift {
        publications(first: 1) { nodes { id name } }
        webhookSubscriptions(first: 1, callbackUrl: "https://example.com/hook") { nodes { id } }
        metafieldDefinitions(first: 1, ownerType: MEDIA_IMAGE) { nodes { id } }
        shop { protectionPlans }
      }`,
    );
    assert.equal(errors.length, 4, errors.join("\n"));
    assert.match(errors.join("\n"), /Cannot query field "protectionPlans" on type "Shop"/);
    assert.match(errors.join("\n"), /The field Publication\.name is deprecated\. Use \[Catalog\.title\]/);
    assert.match(errors.join("\n"), /argument "callbackUrl" is deprecated/);
    assert.match(errors.join("\n"), /enum value "MetafieldOwnerType\.MEDIA_IMAGE" is deprecated/);
  });

  it("refuses a syntax error", () => {
    assert.match(schemaErrors(adminSchema(SHOPIFY_API_VERSION), "query Broken { shop { id }")[0], /Syntax Error/);
  });

  it("refuses an unknown field and a deprecated field in a Function's input query, from the API its target names", () => {
    const { api, schema } = functionsSchemaForTarget("cart.validations.generate.run", SHOPIFY_API_VERSION);
    assert.equal(api, "cart_checkout_validation");
    assert.equal(functionsSchemaForTarget("purchase.validation.run", SHOPIFY_API_VERSION).api, api);
    assert.deepEqual(schemaErrors(schema, "query Input { cart { lines { quantity } } }"), []);
    const errors = schemaErrors(
      schema,
      "query Input { cart { lines { quantity insured } } localization { market { id } } }",
    );
    assert.equal(errors.length, 2, errors.join("\n"));
    assert.match(errors.join("\n"), /Cannot query field "insured" on type "CartLine"/);
    assert.match(errors.join("\n"), /The field Localization\.market is deprecated/);
  });

  it("says so when the package lacks the schema of an API version or a Function target", () => {
    assert.throws(
      () => adminSchema("2099-01"),
      /has no Admin API schema for 2099-01 \(it has .*2026-10.*\): update it/,
    );
    assert.throws(() => functionsSchemaForTarget("cart.validations.generate.run", "2099-01"), /no Functions API/);
    assert.throws(
      () => functionsSchemaForTarget("cart.protection.generate.run", SHOPIFY_API_VERSION),
      /no Functions API .* handles the target cart\.protection\.generate\.run/,
    );
  });
});
