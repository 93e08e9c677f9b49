// A request's input checked as the API checks it, shared by the route table (app.ts) and the portal pages' use cases
// (server/core/portal.ts), so a refusal reads the same whichever way the buyer came: NUL characters refused first,
// then the route's schema, its first problem a 400 naming the parameter.
import type { z } from "zod";
import { errors, fromZodError } from "./errors.ts";
import { nulCharacterPath } from "./body.ts";

export function refuseNul<T>(value: T, where: "body" | "query" | "path"): T {
  const param = nulCharacterPath(value);
  if (param !== undefined) throw errors.nulCharacter(where, param);
  return value;
}

export function parse<T>(schema: z.ZodType<T> | undefined, input: unknown, where: "body" | "query"): T {
  if (!schema) return input as T;
  const parsed = schema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw fromZodError(parsed.error, where);
  return parsed.data;
}
