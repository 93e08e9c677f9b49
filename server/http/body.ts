import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { UploadedFile } from "../domain/claims.ts";
import { ApiError, errors } from "./errors.ts";

/**
 * The raw request body as text, refused past `limitBytes` with 413. A declared Content-Length is checked before
 * reading anything (the common case, and the cheap one: no web stream is built); a chunked body is counted as it
 * streams and abandoned at the limit, so an oversized upload is never held in memory whole.
 */
export async function readBodyText(c: Context, limitBytes: number): Promise<string> {
  return Buffer.from(await readBodyBytes(c, limitBytes)).toString("utf8");
}

/** The raw request body as bytes, refused past `limitBytes` with 413 as readBodyText. */
export async function readBodyBytes(c: Context, limitBytes: number): Promise<Uint8Array> {
  const declared = c.req.header("content-length");
  if (declared !== undefined) {
    if (Number(declared) > limitBytes) throw errors.bodyTooLarge(limitBytes);
    try {
      return new Uint8Array(await c.req.arrayBuffer());
    } catch {
      // The client closed its side before sending what Content-Length promised: its mistake, not ours.
      throw errors.bodyIncomplete();
    }
  }
  const body = c.req.raw.body;
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength;
    if (received > limitBytes) throw errors.bodyTooLarge(limitBytes);
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** A multipart/form-data body's media type (with its boundary parameter). */
export function isMultipartFormData(contentType: string): boolean {
  return /^multipart\/form-data\s*;/i.test(contentType.trim());
}

/** A multipart request: its text fields (a repeated one as a list), its files, and what fingerprints it. */
export interface MultipartBody {
  fields: Record<string, string | string[]>;
  files: UploadedFile[];
  /** Stands for the raw body in the idempotency fingerprint: the SHA-256 of its bytes. */
  fingerprint: string;
}

/**
 * Reads a multipart/form-data body of at most `limitBytes` (413 while reading, before it is held whole) and parses it
 * with the platform's parser (undici's `Request.formData()`). Files are accepted only in `fileField`; a file input
 * left empty (no name, no bytes, as a browser sends it) is no file. An empty text field is an absent one (an HTML
 * form sends every input, filled or not).
 */
export async function readMultipartBody(c: Context, limitBytes: number, fileField: string): Promise<MultipartBody> {
  const bytes = await readBodyBytes(c, limitBytes);
  let form: FormData;
  try {
    form = await new Request("http://multipart.invalid/", {
      method: "POST",
      headers: { "content-type": c.req.header("content-type")! },
      body: bytes as Uint8Array<ArrayBuffer>,
    }).formData();
  } catch {
    throw new ApiError(
      400,
      "invalid_request_error",
      "body_invalid_multipart",
      "The request body is not valid multipart/form-data.",
    );
  }
  const fields: Record<string, string | string[]> = {};
  const files: UploadedFile[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") {
      if (value === "") continue;
      const previous = fields[name];
      fields[name] = previous === undefined ? value : [...[previous].flat(), value];
      continue;
    }
    if (value.name === "" && value.size === 0) continue;
    if (name !== fileField)
      throw new ApiError(
        400,
        "invalid_request_error",
        "parameter_unknown",
        `Files are accepted only in the '${fileField}' field, not '${name}'.`,
        name,
      );
    files.push({
      field: name,
      index: files.length,
      fileName: value.name,
      bytes: new Uint8Array(await value.arrayBuffer()),
    });
  }
  return { fields, files, fingerprint: `multipart ${createHash("sha256").update(bytes).digest("hex")}` };
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
