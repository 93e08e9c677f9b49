// A page's GET filters (Purchases, Claims, Analytics' days): what the form shows again, and either the parsed query or
// each field's problem. Empty fields are absent, not invalid.
import { z } from "zod";

/**
 * A UTC day as a filter's date field sends it (YYYY-MM-DD), as the instant it starts. A day the calendar lacks
 * (2026-02-30) is refused, not rolled into the next month as Date.parse would.
 */
export const utcDayFilter = z.iso
  .date({
    error: ({ input }) =>
      typeof input === "string" && /^\d{4}-\d{2}-\d{2}$/.test(input)
        ? `There is no ${input}: use a date such as 2026-11-25.`
        : "Use a date such as 2026-11-25.",
  })
  .transform((value) => Date.parse(`${value}T00:00:00.000Z`));

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
