import type { Context } from "hono";
import { errors } from "./errors.ts";

/**
 * The raw request body as text, refused past `limitBytes` with 413. A declared Content-Length is checked before
 * reading anything (the common case, and the cheap one: no web stream is built); a chunked body is counted as it
 * streams and abandoned at the limit, so an oversized upload is never held in memory whole.
 */
export async function readBodyText(c: Context, limitBytes: number): Promise<string> {
  const declared = c.req.header("content-length");
  if (declared !== undefined) {
    if (Number(declared) > limitBytes) throw errors.bodyTooLarge(limitBytes);
    try {
      return await c.req.text();
    } catch {
      // The client closed its side before sending what Content-Length promised: its mistake, not ours.
      throw errors.bodyIncomplete();
    }
  }
  const body = c.req.raw.body;
  if (!body) return "";
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength;
    if (received > limitBytes) throw errors.bodyTooLarge(limitBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON body's media type: application/json or any application/…+json, with or without parameters. */
export function isJsonMediaType(contentType: string): boolean {
  return /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(contentType.trim());
}

/**
 * The path of the first string (or object key) holding U+0000, or undefined. PostgreSQL cannot store NUL in text,
 * and no identifier, e-mail or reason needs it, so it is refused for every route at the edge, on both databases.
 * Walked with an explicit stack: a 64 KB body can nest thousands of levels deep.
 */
export function nulCharacterPath(value: unknown): string | undefined {
  interface Visit {
    value: unknown;
    key?: string;
    parent?: Visit;
  }
  const pathOf = (visit: Visit, last?: string) => {
    const keys = last === undefined ? [] : [last];
    for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.unshift(at.key);
    return keys.join(".");
  };
  const pending: Visit[] = [{ value }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (typeof visit.value === "string") {
      if (visit.value.includes("\u0000")) return pathOf(visit);
    } else if (typeof visit.value === "object" && visit.value !== null) {
      for (const [key, child] of Object.entries(visit.value).reverse()) {
        if (key.includes("\u0000")) return pathOf(visit, key);
        pending.push({ value: child, key, parent: visit });
      }
    }
  }
  return undefined;
}
