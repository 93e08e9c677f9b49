// The orders/create subscription's delivery filter (shopify.app.toml), and a small evaluator of the part of Shopify's
// webhook filter syntax it uses, so the bench and the tests apply it to a payload as Shopify would before delivering:
// `path:value` terms (a dotted path into the payload; through an array, any element may match; values compared
// case-insensitively, `*` for "present"), quoted values, AND, OR, NOT and parentheses. Shopify evaluates the filter;
// the app never relies on it: an order that reaches it is checked in full (orders.server.ts).
import { ACCEPTED, CHOICE_ATTRIBUTE } from "@purchase-protection/contract";

/**
 * The SKU of every variant of the protection product: the one field of an order's line that names our product in
 * every shop (the product's id differs per shop, and a filter is the same for all of them).
 */
export const PROTECTION_SKU = "PURCHASE-PROTECTION";

/**
 * orders/create reaches the app for an order with the protection line, or with the buyer's accepted opt-in attribute
 * (its name and an accepted value: Shopify matches each term against any attribute, so this is a superset). An order
 * with neither has nothing for the app to do.
 */
export const ORDERS_CREATE_FILTER = `line_items.sku:${PROTECTION_SKU} OR (note_attributes.name:${CHOICE_ATTRIBUTE} AND note_attributes.value:${ACCEPTED})`;

type Node =
  | { kind: "term"; path: string[]; value: string }
  | { kind: "not"; operand: Node }
  | { kind: "and" | "or"; left: Node; right: Node };

const TOKEN = /\s*(\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+(?:"(?:[^"\\]|\\.)*")?)/y;

function tokenize(filter: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < filter.length) {
    const match = TOKEN.exec(filter);
    if (!match) {
      if (filter.slice(TOKEN.lastIndex).trim() === "") break;
      throw new SyntaxError(`webhook filter: cannot read '${filter.slice(TOKEN.lastIndex)}'`);
    }
    tokens.push(match[1]);
  }
  return tokens;
}

/** Parses a filter: OR binds loosest, then AND (also implied between adjacent terms), then NOT. */
function parseWebhookFilter(filter: string): Node {
  const tokens = tokenize(filter);
  let at = 0;
  const peek = () => tokens[at];
  const orExpression = (): Node => {
    let left = andExpression();
    while (peek() === "OR") {
      at++;
      left = { kind: "or", left, right: andExpression() };
    }
    return left;
  };
  const andExpression = (): Node => {
    let left = unary();
    while (peek() !== undefined && peek() !== "OR" && peek() !== ")") {
      if (peek() === "AND") at++;
      left = { kind: "and", left, right: unary() };
    }
    return left;
  };
  const unary = (): Node => {
    const token = tokens[at++];
    if (token === undefined) throw new SyntaxError("webhook filter: a term is missing");
    if (token === "NOT") return { kind: "not", operand: unary() };
    if (token === "(") {
      const inner = orExpression();
      if (tokens[at++] !== ")") throw new SyntaxError("webhook filter: ')' is missing");
      return inner;
    }
    const colon = token.indexOf(":");
    if (colon <= 0) throw new SyntaxError(`webhook filter: '${token}' is not a field:value term`);
    const raw = token.slice(colon + 1);
    const value = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
    return { kind: "term", path: token.slice(0, colon).split("."), value };
  };
  const tree = orExpression();
  if (at !== tokens.length) throw new SyntaxError(`webhook filter: unexpected '${tokens[at]}'`);
  return tree;
}

/** The values at a dotted path, through arrays (each element) and objects. */
function valuesAt(value: unknown, path: string[]): unknown[] {
  if (Array.isArray(value)) return value.flatMap((element) => valuesAt(element, path));
  if (path.length === 0) return value === undefined || value === null ? [] : [value];
  if (typeof value !== "object" || value === null) return [];
  return valuesAt((value as Record<string, unknown>)[path[0]], path.slice(1));
}

function evaluate(node: Node, payload: unknown): boolean {
  switch (node.kind) {
    case "term": {
      const values = valuesAt(payload, node.path);
      if (node.value === "*") return values.length > 0;
      return values.some((value) => String(value).toLowerCase() === node.value.toLowerCase());
    }
    case "not":
      return !evaluate(node.operand, payload);
    case "and":
      return evaluate(node.left, payload) && evaluate(node.right, payload);
    case "or":
      return evaluate(node.left, payload) || evaluate(node.right, payload);
  }
}

/** Whether Shopify delivers a payload under `filter`, parsed once (a filter it cannot read throws SyntaxError). */
export function webhookFilter(filter: string): (payload: unknown) => boolean {
  const tree = parseWebhookFilter(filter);
  return (payload) => evaluate(tree, payload);
}
