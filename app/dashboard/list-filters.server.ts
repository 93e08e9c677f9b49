// A list page's GET filters (Purchases, Claims): what the form shows again, and either the parsed query or each
// field's problem. Empty fields are absent, not invalid.
import type { z } from "zod";

export interface ParsedFilters<Query, Name extends string> {
  filters: Record<Name, string>;
  /** Undefined when a filter is invalid: `errors` names each one. */
  query: Query | undefined;
  errors: Record<string, string>;
}

export function parseListFilters<Schema extends z.ZodType, Name extends string>(
  schema: Schema,
  request: Request,
  names: readonly Name[],
): ParsedFilters<z.infer<Schema>, Name> {
  const params = new URL(request.url).searchParams;
  const filters = Object.fromEntries(names.map((name) => [name, params.get(name) ?? ""])) as Record<Name, string>;
  const parsed = schema.safeParse(Object.fromEntries([...params].filter(([, value]) => value !== "")));
  if (parsed.success) return { filters, query: parsed.data, errors: {} };
  return {
    filters,
    query: undefined,
    errors: Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
  };
}
