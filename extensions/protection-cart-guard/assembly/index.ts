// The card-testing guard (cart.validations.generate.run): a checkout holding the purchase protection alone, or more
// than one protection, is refused with a message to the buyer. Card testers try stolen cards on the cheapest thing a
// store sells; the protection line is meant to ride along with goods, once. The cart itself is left alone (the
// buyer can still fix it there); the error shows and blocks in checkout.
import { readStdin, writeStdout } from "./wasi";
import { Kind, parseJson } from "./json";

/** The protection product's handle: PROTECTION_PRODUCT_HANDLE in app/shopify/admin-api.server.ts. */
const PROTECTION_HANDLE = "purchase-protection";

const ALONE =
  "Purchase protection cannot be bought on its own. Add the items you want to protect, or remove the protection.";
const MORE_THAN_ONE = "Purchase protection can be added once per order. Remove the extra protection from your cart.";

export function run(): void {
  const input = parseJson(readStdin());
  const errors: string[] = [];
  if (input.field("buyerJourney").field("step").string != "CART_INTERACTION") {
    let protection: f64 = 0;
    let goods: f64 = 0;
    const lines = input.field("cart").field("lines").items;
    for (let index = 0; index < lines.length; index++) {
      const quantity = lines[index].field("quantity");
      const count = quantity.kind == Kind.Number ? quantity.number : 0;
      const handle = lines[index].field("merchandise").field("product").field("handle");
      if (handle.kind == Kind.String && handle.string == PROTECTION_HANDLE) protection += count;
      else goods += count;
    }
    if (protection > 0 && goods <= 0) errors.push(ALONE);
    if (protection > 1) errors.push(MORE_THAN_ONE);
  }
  writeStdout(output(errors));
}

/** CartValidationsGenerateRunResult: one validationAdd of the errors, on the cart as a whole; none when it passes. */
function output(messages: string[]): string {
  if (messages.length == 0) return `{"operations":[]}`;
  const errors: string[] = [];
  for (let index = 0; index < messages.length; index++) {
    errors.push(`{"message":"${messages[index]}","target":"$.cart"}`);
  }
  return `{"operations":[{"validationAdd":{"errors":[${errors.join(",")}]}}]}`;
}
