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
    return c.req.text();
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
