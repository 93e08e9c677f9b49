// Shopify's published GraphQL schemas — the Admin API and each Functions API, per API version — from the
// introspection data the npm package @shopify/dev-mcp (ISC) ships in dist/data. Read from those files directly: the
// package's own validator runs in its MCP server, which reports usage over the network. Used by
// test/app/shopify-schema.test.ts (docs/shopify.md "Shopify's schema in npm test").
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import {
  buildClientSchema,
  GraphQLError,
  NoDeprecatedCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type IntrospectionQuery,
} from "graphql";

// The package's exports name no data files (and only an "import" condition), so it is found where npm installs it.
const PACKAGE_DIR = path.resolve(import.meta.dirname, "../../node_modules/@shopify/dev-mcp");
const DATA_DIR = path.join(PACKAGE_DIR, "dist", "data");
const PACKAGE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as {
    version: string;
  }
).version;

/** `admin_2026-10.json.gz` → api "admin", version "2026-10"; `functions_cart_transform_unstable.json.gz` likewise. */
const SCHEMA_FILE = /^(.+)_(\d{4}-\d{2}|unstable)\.json\.gz$/;

function schemaFiles(): { api: string; version: string; file: string }[] {
  return fs.readdirSync(DATA_DIR).flatMap((file) => {
    const match = SCHEMA_FILE.exec(file);
    return match ? [{ api: match[1], version: match[2], file: path.join(DATA_DIR, file) }] : [];
  });
}

const loaded = new Map<string, GraphQLSchema>();

function loadSchema(file: string): GraphQLSchema {
  let schema = loaded.get(file);
  if (!schema) {
    const introspection = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString("utf8")) as {
      data: IntrospectionQuery;
    };
    schema = buildClientSchema(introspection.data);
    loaded.set(file, schema);
  }
  return schema;
}

/** The Admin API schema of `version`; throws, naming the versions the package has, when it lacks that one. */
export const adminSchema = (version: string): GraphQLSchema => publishedSchema("admin", "Admin API", version);

/** The Storefront API schema of `version` (what a checkout UI extension's `query` runs against); throws likewise. */
export const storefrontSchema = (version: string): GraphQLSchema =>
  publishedSchema("storefront-graphql", "Storefront API", version);

function publishedSchema(api: string, name: string, version: string): GraphQLSchema {
  const found = schemaFiles().find((entry) => entry.api === api && entry.version === version);
  if (!found) {
    const versions = schemaFiles()
      .filter((entry) => entry.api === api)
      .map((entry) => entry.version);
    throw new Error(
      `@shopify/dev-mcp ${PACKAGE_VERSION} has no ${name} schema for ${version} (it has ${versions.join(", ")}): ` +
        "update it (npm install -D @shopify/dev-mcp@latest) before moving the API version",
    );
  }
  return loadSchema(found.file);
}

/** "Handles the Function result for the cart.validations.generate.run target." */
const HANDLED_TARGET = /\bfor the (\S+) target\b/;

/**
 * The Functions API that runs `target` at `version`, found in the schemas themselves: each Functions API's mutation
 * root has one field per target it takes results from, described as handling that target.
 */
export function functionsSchemaForTarget(target: string, version: string): { api: string; schema: GraphQLSchema } {
  const apis = schemaFiles().filter((entry) => entry.api.startsWith("functions_") && entry.version === version);
  if (apis.length === 0)
    throw new Error(
      `@shopify/dev-mcp ${PACKAGE_VERSION} has no Functions API schemas for ${version}: ` +
        "update it (npm install -D @shopify/dev-mcp@latest) before moving the extension's api_version",
    );
  for (const entry of apis) {
    const schema = loadSchema(entry.file);
    const results = Object.values(schema.getMutationType()?.getFields() ?? {});
    if (results.some((field) => HANDLED_TARGET.exec(field.description ?? "")?.[1] === target))
      return { api: entry.api.slice("functions_".length), schema };
  }
  throw new Error(`no Functions API in @shopify/dev-mcp ${PACKAGE_VERSION} handles the target ${target} at ${version}`);
}

/** graphql-js's standard validation rules, plus: no deprecated field, argument, input field or enum value. */
const RULES = [...specifiedRules, NoDeprecatedCustomRule];

/** Why `source` is not a valid document for `schema` (a syntax error, or each rule it breaks); empty when valid. */
export function schemaErrors(schema: GraphQLSchema, source: string): string[] {
  let document: DocumentNode;
  try {
    document = parse(source);
  } catch (error) {
    if (error instanceof GraphQLError) return [error.message];
    throw error;
  }
  return validate(schema, document, RULES).map((error) => error.message);
}
