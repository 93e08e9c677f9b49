// Writes src/responses.ts, the SDK's response types, from the API's OpenAPI document (server/http/openapi.ts): each
// operation's documented 200 body becomes a closed TypeScript type. test/response-types.test.ts fails when the file
// differs from what this script writes, so a change of the wire shows up as a change of the SDK's types.
// Run with `node packages/sdk/scripts/generate-responses.ts`.
import { isDeepStrictEqual } from "node:util";
import fs from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { openApiDocument } from "../../../server/http/openapi.ts";
import { routes } from "../../../server/http/routes.ts";

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  description?: string;
};

/** A path item's entry: an operation, or (`servers` of an own-prefix alias) no operationId. */
type Operation = {
  operationId?: string;
  responses: { "200": { content: { "application/json"?: { schema: JsonSchema } } } };
};

export const RESPONSES_FILE = path.resolve(import.meta.dirname, "../src/responses.ts");

/** The SDK's names for the documented objects: the operation whose response shows one, and where in that response. */
const NAMED: [name: string, operationId: string, at?: "item" | "consent"][] = [
  ["Quote", "createQuote"],
  ["Confirmation", "confirmQuote"],
  ["DeclinedQuote", "declineQuote"],
  ["Purchase", "voidPlan"],
  ["ConsentRecord", "getPurchase", "consent"],
  ["PurchaseWithConsent", "getPurchase"],
  ["MerchantRefund", "reportMerchantRefund"],
  ["Shipment", "reportShipment"],
  ["OrderDelivery", "getOrderDelivery"],
  ["TrackingConnection", "connectAftership"],
  ["Claim", "listClaims", "item"],
  ["MerchantMetrics", "getMerchantMetrics"],
  ["HeadlessQuote", "headlessQuote"],
  ["HeadlessConfirmation", "headlessConfirm"],
  ["HeadlessDeclinedQuote", "headlessDecline"],
  ["Event", "getEvent"],
  ["Redelivery", "redeliverEvent"],
  ["WebhookEndpoint", "getWebhookEndpoint"],
  ["WebhookEndpointWithSecret", "createWebhookEndpoint"],
  ["DeletedWebhookEndpoint", "deleteWebhookEndpoint"],
  ["WebhookAttempt", "listWebhookDeliveries", "item"],
  ["PortalPlan", "getPortalPlan"],
  ["PortalSession", "portalLookup"],
  ["PortalRulebook", "getPortalReasons"],
  ["PortalClaim", "listPortalClaims", "item"],
  ["PortalClaimWithTimeline", "getPortalClaim"],
  ["SettlementStatement", "listSettlements", "item"],
  ["Program", "getProgram"],
  ["SettlementWithEntries", "getSettlement"],
  ["SettlementBalances", "getSettlementBalance"],
];

/** The documented page of a list, its items aside. */
const PAGE_FIELDS = {
  object: { type: "string", const: "list" },
  has_more: { type: "boolean" },
  next_cursor: { type: ["string", "null"] },
};

/** Each operation's 200 body, by operationId (the own-prefix aliases are the same operations). */
export function documentedResponses(): Map<string, JsonSchema> {
  const responses = new Map<string, JsonSchema>();
  for (const operations of Object.values(openApiDocument(routes).paths)) {
    for (const operation of Object.values(operations) as Operation[]) {
      if (operation.operationId === undefined || operation.operationId.endsWith("AtOwnPrefix")) continue;
      // A file download (evidence) has no JSON body to type.
      const json = operation.responses["200"].content["application/json"];
      if (json) responses.set(operation.operationId, json.schema);
    }
  }
  return responses;
}

export async function generateResponses(): Promise<string> {
  const responses = documentedResponses();
  const named = NAMED.map(([name, operationId, at]) => {
    const response = responses.get(operationId);
    if (response === undefined) throw new Error(`no documented response for ${operationId}`);
    const schema =
      at === "item" ? response.properties!.data!.items! : at === "consent" ? response.properties!.consent! : response;
    return { name, operationId, at, schema };
  });

  const render = (schema: JsonSchema, self?: string): string => {
    const known = named.find((entry) => entry.name !== self && isDeepStrictEqual(entry.schema, schema));
    if (known) return known.name;
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
    if (schema.anyOf) return union(schema.anyOf.map((member) => render(member)));
    if (Array.isArray(schema.type)) return union(schema.type.map((type) => render({ ...schema, type })));
    switch (schema.type) {
      case "string":
        return "string";
      case "integer":
      case "number":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array": {
        const item = render(schema.items!);
        return /[ |]/.test(item) && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
      }
      case "object":
        return renderObject(schema, self);
    }
    throw new Error(`no TypeScript type for the schema ${JSON.stringify(schema)}`);
  };

  const renderObject = (schema: JsonSchema, self?: string): string => {
    if (
      schema.properties === undefined &&
      schema.propertyNames?.enum &&
      typeof schema.additionalProperties === "object"
    ) {
      return `Partial<Record<${render(schema.propertyNames)}, ${render(schema.additionalProperties)}>>`;
    }
    if (schema.properties === undefined || schema.additionalProperties !== false)
      throw new Error(`an open object: ${JSON.stringify(schema)}`);
    if (isPage(schema)) return `List<${render(schema.properties.data!.items!)}>`;
    const base = named
      .filter((entry) => entry.name !== self && extendsSchema(schema, entry.schema))
      .sort((a, b) => Object.keys(b.schema.properties!).length - Object.keys(a.schema.properties!).length)[0];
    const properties = base
      ? Object.fromEntries(Object.entries(schema.properties).filter(([key]) => !(key in base.schema.properties!)))
      : schema.properties;
    const lines = Object.entries(properties).map(([key, property]) => {
      const optional = schema.required?.includes(key) ? "" : "?";
      return `${docComment(descriptionOf(property))}${key}${optional}: ${render(property)};`;
    });
    return `${base ? `${base.name} & ` : ""}{\n${lines.join("\n")}\n}`;
  };

  const declarations = named.map(({ name, operationId, at, schema }) => {
    const where =
      at === "item"
        ? `An item of the ${operationId} response`
        : at === "consent"
          ? `The consent of the ${operationId} response`
          : `The ${operationId} response`;
    return `${docComment(`${where}.${schema.description ? ` ${schema.description}` : ""}`)}export type ${name} = ${render(schema, name)};`;
  });
  const operations = [...responses].map(([operationId, schema]) => `${operationId}: ${render(schema)};`);
  const portalOperations = portalOperationIds().filter((operationId) => responses.has(operationId));
  const callbackOperations = callbackOperationIds().filter((operationId) => responses.has(operationId));

  const source = `// Generated by scripts/generate-responses.ts from the API's OpenAPI document: do not edit.
// Every documented 200 body, closed: a misspelt field does not type-check.

/** One page of a list, newest first. */
export interface List<Item> {
  object: "list";
  data: Item[];
  has_more: boolean;
  /** Pass as \`starting_after\` for the next page; null on the last. */
  next_cursor: string | null;
}

${declarations.join("\n\n")}

/** Each operation's response, by the OpenAPI operationId. */
export interface OperationResponses {
${operations.join("\n")}
}

/** The buyer portal's operations (a portal session or no credential): the portal's, not this merchant SDK's. */
export type PortalOperation = ${portalOperations.map((id) => JSON.stringify(id)).join(" | ")};

/** What a tracking aggregator calls, signed with the merchant's secret at the aggregator: not this SDK's. */
export type CallbackOperation = ${callbackOperations.map((id) => JSON.stringify(id)).join(" | ")};
`;
  // Prettier lays the declarations out (the project's settings), so this script writes them without indentation.
  return prettier.format(source, { ...(await prettier.resolveConfig(RESPONSES_FILE)), filepath: RESPONSES_FILE });
}

/** The buyer portal's operations: a portal session or no credential, never a merchant key. */
export const portalOperationIds = () =>
  routes
    .filter((route) => route.keys.some((kind) => kind === "portal" || kind === "anyone"))
    .map((route) => route.operationId);

/** The tracking aggregator's signed callbacks: the aggregator calls them, not the merchant. */
export const callbackOperationIds = () =>
  routes.filter((route) => route.keys.includes("aftership")).map((route) => route.operationId);

function isPage(schema: JsonSchema): boolean {
  const { data, ...rest } = schema.properties ?? {};
  return (
    data?.type === "array" &&
    isDeepStrictEqual(rest, PAGE_FIELDS) &&
    isDeepStrictEqual(schema.required, ["object", "data", "has_more", "next_cursor"])
  );
}

/** The object has every field of `base`, required as there, and more: `Base & { … }`. */
function extendsSchema(schema: JsonSchema, base: JsonSchema): boolean {
  if (base.type !== "object" || base.properties === undefined) return false;
  const extra = Object.keys(schema.properties!).filter((key) => !(key in base.properties!));
  return (
    extra.length > 0 &&
    Object.entries(base.properties).every(
      ([key, field]) =>
        isDeepStrictEqual(schema.properties![key], field) &&
        schema.required?.includes(key) === base.required?.includes(key),
    )
  );
}

const union = (members: string[]) => [...new Set(members)].join(" | ");

/** A property's description, also when it sits on the non-null member of a nullable one. */
const descriptionOf = (schema: JsonSchema) =>
  schema.description ?? schema.anyOf?.find((member) => member.description)?.description;

const docComment = (text: string | undefined) => (text ? `/** ${text.replaceAll("*/", "*\\/")} */\n` : "");

if (process.argv[1] === import.meta.filename) {
  fs.writeFileSync(RESPONSES_FILE, await generateResponses());
  console.log(`wrote ${path.relative(process.cwd(), RESPONSES_FILE)}`);
}
