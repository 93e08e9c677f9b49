import { createHash } from "node:crypto";
import { once } from "node:events";
import { Busboy, type BusboyInstance } from "@fastify/busboy";
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

/** What a form body may hold. Past any of these it is refused while it streams: 413 for its bytes, 400 for the rest. */
export interface FormLimits {
  /** The whole body, framing included. */
  bytes: number;
  /** Parts: text fields and files together. */
  parts: number;
  /** How often one text field's name may occur. */
  fieldRepeats: number;
  /** One text field's value. */
  fieldBytes: number;
  files: number;
  /** One file. */
  fileBytes: number;
}

/** A form body as it came: its text fields (each name's values in order, empty ones too), its files, its hash. */
export interface FormBody {
  fields: Map<string, string[]>;
  files: UploadedFile[];
  /** Stands for the raw body in the idempotency fingerprint: the SHA-256 of its bytes. */
  fingerprint: string;
}

/** Where a form body comes from: the request's headers and its body stream. */
export interface FormSource {
  contentType: string;
  contentLength: string | undefined;
  body: ReadableStream<Uint8Array> | null;
}

/** A form body's media type: multipart/form-data (with its boundary) or application/x-www-form-urlencoded. */
export function isFormMediaType(contentType: string): boolean {
  return isMultipartFormData(contentType) || /^application\/x-www-form-urlencoded\s*(?:;|$)/i.test(contentType.trim());
}

/**
 * Parses a multipart/form-data or urlencoded body as it streams (busboy: linear in its size, the body never held
 * whole), refusing it at the first limit it passes: a declared Content-Length over `limits.bytes` before anything is
 * read, then the bytes counted as they arrive, then parts, files, a field's repeats and a value's or a file's size.
 * Files are accepted only in `fileField` (none without it); a file input left empty (no name, no bytes, as a browser
 * sends it) is no file.
 */
export async function readFormBody(source: FormSource, limits: FormLimits, fileField?: string): Promise<FormBody> {
  if (source.contentLength !== undefined && Number(source.contentLength) > limits.bytes)
    throw errors.bodyTooLarge(limits.bytes);
  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: { "content-type": source.contentType },
      // A part is a file when it names one, as browsers and undici tell them apart.
      isPartAFile: (_name, _type, fileName) => fileName !== undefined,
      limits: {
        parts: limits.parts,
        fields: limits.parts,
        fieldSize: limits.fieldBytes,
        files: limits.files,
        fileSize: limits.fileBytes,
        fieldNameSize: 200,
        headerPairs: 16,
        headerSize: 16 * 1024,
      },
    });
  } catch {
    throw errors.bodyInvalidForm();
  }
  let fail!: (error: ApiError) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  let failure: ApiError | undefined;
  const refuse = (error: ApiError) => {
    failure ??= error;
    fail(failure);
  };
  const fields = new Map<string, string[]>();
  const files: UploadedFile[] = [];
  const fileReads: Promise<void>[] = [];
  parser.on("field", (name, value, nameTruncated, valueTruncated) => {
    if (nameTruncated) return refuse(errors.formLimitExceeded("a field name of at most 200 bytes"));
    if (valueTruncated) return refuse(errors.formLimitExceeded(`a field of at most ${limits.fieldBytes} bytes`, name));
    const values = fields.get(name);
    if (!values) fields.set(name, [value]);
    else if (values.length >= limits.fieldRepeats)
      refuse(errors.formLimitExceeded(`a field given at most ${limits.fieldRepeats} times`, name));
    else values.push(value);
  });
  parser.on("file", (name, stream, fileName) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A body cut inside a file fails the file's stream too; unheard, that error would end the process.
    stream.on("error", () => refuse(errors.bodyInvalidForm()));
    stream.on("limit", () => refuse(errors.formLimitExceeded(`files of at most ${limits.fileBytes} bytes`, name)));
    fileReads.push(
      new Promise<void>((resolve) =>
        stream.on("end", () => {
          resolve();
          if (failure || (fileName === "" && chunks.length === 0)) return;
          if (name !== fileField)
            return refuse(
              new ApiError(
                400,
                "invalid_request_error",
                "parameter_unknown",
                fileField
                  ? `Files are accepted only in the '${fileField}' field, not '${name}'.`
                  : "This form takes no files.",
                name,
              ),
            );
          files.push({ field: name, index: files.length, fileName, bytes: new Uint8Array(Buffer.concat(chunks)) });
        }),
      ),
    );
  });
  parser.on("partsLimit", () => refuse(errors.formLimitExceeded(`at most ${limits.parts} parts`)));
  parser.on("fieldsLimit", () => refuse(errors.formLimitExceeded(`at most ${limits.parts} fields`)));
  parser.on("filesLimit", () => refuse(errors.formLimitExceeded(`at most ${limits.files} files`)));
  parser.on("error", () => refuse(errors.bodyInvalidForm()));
  const finished = new Promise<void>((resolve) => parser.on("finish", resolve));

  const hash = createHash("sha256");
  let received = 0;
  try {
    for await (const chunk of (source.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
      received += chunk.byteLength;
      if (received > limits.bytes) refuse(errors.bodyTooLarge(limits.bytes));
      if (failure) break;
      hash.update(chunk);
      if (!parser.write(chunk)) await Promise.race([once(parser, "drain"), failed]);
    }
  } catch (error) {
    if (!failure) {
      // The client closed its side before sending the whole body: its mistake, not ours.
      refuse(error instanceof ApiError ? error : errors.bodyIncomplete());
    }
  }
  if (!failure) parser.end();
  await Promise.race([finished, failed]);
  await Promise.race([Promise.all(fileReads), failed]);
  if (failure) throw failure;
  return { fields, files, fingerprint: `multipart ${hash.digest("hex")}` };
}

/**
 * The API's multipart body (claims with evidence) as its routes take it: a repeated text field as a list, an empty
 * one as absent (an HTML form sends every input, filled or not).
 */
export async function readMultipartBody(
  c: Context,
  limits: FormLimits,
  fileField: string,
): Promise<{ fields: Record<string, string | string[]>; files: UploadedFile[]; fingerprint: string }> {
  const form = await readFormBody(
    { contentType: c.req.header("content-type")!, contentLength: c.req.header("content-length"), body: c.req.raw.body },
    limits,
    fileField,
  );
  const fields: Record<string, string | string[]> = {};
  for (const [name, values] of form.fields) {
    const filled = values.filter((value) => value !== "");
    if (filled.length > 0) fields[name] = filled.length === 1 ? filled[0]! : filled;
  }
  return { fields, files: form.files, fingerprint: form.fingerprint };
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
