// Key spelling. Callers may write camelCase or snake_case; each resource sends the spelling its route expects.

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** The same fields with camelCase names. */
export type CamelCaseKeys<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

/** A snake_case shape, or the same shape spelt in camelCase. */
export type EitherCase<T> = T | CamelCaseKeys<T>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date);

export const toSnakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
export const toCamelCase = (key: string) => key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** snake_case keys at every depth (headless bodies, order_context, list queries). */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [toSnakeCase(key), snakeCaseKeys(inner)]));
}

/** camelCase keys at the top level only (confirm, decline and void bodies). */
export function camelCaseKeys(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [toCamelCase(key), inner]));
}
