// Shopify Flow's side of flowTriggerReceive, from its trigger reference: the trigger is one of the app's flow_trigger
// extensions (by handle), and the payload carries each field the extension declares, and nothing else — a reference
// field under its documented key (order_reference: order_id, the order's numeric id), a custom field under its key
// with a value of its type. A payload that does not match is refused with userErrors, as Flow refuses it.
import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";

const EXTENSIONS = path.resolve(import.meta.dirname, "../../extensions");

interface TriggerField {
  type: string;
  key?: string;
}

/** The reference field types and the payload key each is sent under. */
const REFERENCE_KEYS: Record<string, string> = {
  order_reference: "order_id",
  customer_reference: "customer_id",
  product_reference: "product_id",
};

/** Whether a value fits a custom field of `type` (the types the app's triggers declare). */
const VALUE_CHECKS: Record<string, (value: unknown) => boolean> = {
  single_line_text_field: (value) => typeof value === "string" && !value.includes("\n"),
  number_decimal: (value) => typeof value === "number" && Number.isFinite(value),
  boolean: (value) => typeof value === "boolean",
};

/** The app's flow_trigger extensions by handle, with their fields as declared. */
export function flowTriggerExtensions(): Map<string, TriggerField[]> {
  const triggers = new Map<string, TriggerField[]>();
  for (const dir of fs.readdirSync(EXTENSIONS)) {
    const file = path.join(EXTENSIONS, dir, "shopify.extension.toml");
    if (!fs.existsSync(file)) continue;
    const config = parseToml(fs.readFileSync(file, "utf8")) as {
      extensions?: { type: string; handle: string }[];
      settings?: { fields?: TriggerField[] };
    };
    for (const extension of config.extensions ?? [])
      if (extension.type === "flow_trigger") triggers.set(extension.handle, config.settings?.fields ?? []);
  }
  return triggers;
}

/** What Flow would refuse in the call: an unknown handle, or each field missing, of the wrong type or not declared. */
export function flowTriggerErrors(
  triggers: Map<string, TriggerField[]>,
  handle: string,
  payload: Record<string, unknown>,
): string[] {
  const fields = triggers.get(handle);
  if (!fields) return [`Trigger '${handle}' does not exist`];
  const errors: string[] = [];
  const expected = new Set<string>();
  for (const field of fields) {
    const referenceKey = REFERENCE_KEYS[field.type];
    const key = referenceKey ?? field.key!;
    expected.add(key);
    const value = payload[key];
    if (value === undefined) errors.push(`'${key}' is required`);
    else if (referenceKey ? !Number.isSafeInteger(value) : !(VALUE_CHECKS[field.type]?.(value) ?? false))
      errors.push(`'${key}' is not a valid ${field.type}`);
  }
  for (const key of Object.keys(payload)) if (!expected.has(key)) errors.push(`'${key}' is not a field of '${handle}'`);
  return errors;
}
