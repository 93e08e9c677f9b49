export const snakeCaseKey = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** camelCase keys → snake_case, deeply, for the headless wire format (README "Headless (server path)": snake_case in and out). */
export function toSnakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toSnakeCase);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeCaseKey(key), toSnakeCase(inner)]));
}
