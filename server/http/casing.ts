import { z } from "zod";
import type { Route } from "./route.ts";

export const snakeCaseKey = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** camelCase keys → snake_case, deeply, for the headless wire format (docs/api.md "Headless (server path)": snake_case in and out). */
export function toSnakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toSnakeCase);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeCaseKey(key), toSnakeCase(inner)]));
}

/** snake_case → camelCase: the domain's name for a request field. */
export const camelCaseKey = (key: string) => key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The request fields a route reads: its body and query fields and its path parameters. */
function requestFieldsOf(route: Route): string[] {
  const keys = (schema: z.ZodType | undefined) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);
  return [...keys(route.body), ...keys(route.query), ...[...route.path.matchAll(/:(\w+)/g)].map((match) => match[1])];
}

/**
 * How a route's caller spells the field paths of the domain's errors. The first segment names a request field: the
 * route's `fieldNames` entry, or else the field it reads under that name in any casing (its first spelling when it
 * reads two, as headless `quote_id` with its alias `quoteId`); a field the route does not read keeps the domain's
 * name. The rest of a path lies inside a document (order_context) and keeps that document's names.
 */
export function callerSpelling(route: Route): (field: string) => string {
  const names = new Map<string, string>();
  for (const name of requestFieldsOf(route)) if (!names.has(camelCaseKey(name))) names.set(camelCaseKey(name), name);
  for (const [field, name] of Object.entries(route.fieldNames ?? {})) names.set(field, name);
  return (field) => {
    const [head, ...rest] = field.split(".");
    return [names.get(camelCaseKey(head)) ?? head, ...rest].join(".");
  };
}
