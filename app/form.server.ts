// Every page action reads its form here, never with request.formData() (which buffers the whole body first and
// parses a repeated field in quadratic time): the core's streaming parser under the page's limits (app/body-limits.ts),
// a refusal thrown as a short plain-text response (413 over the size, 400 for a malformed or over-limit form or a
// NUL character, which PostgreSQL cannot store and no field needs), never a 500.
import { ApiError, isFormMediaType, readFormBody } from "../server/index.ts";
import { bodyLimitFor } from "./body-limits.ts";

/** A page's answer to a request it will not act on: a short plain-text body, no stack, nothing logged. */
export function refusal(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** The posted form, as FormData (text fields in order, files as File), or a thrown 400/413 response. */
export async function readForm(request: Request): Promise<FormData> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!isFormMediaType(contentType)) throw refusal(400, "Bad Request: the body is not a form.");
  const page = bodyLimitFor(new URL(request.url).pathname)?.form;
  if (!page) throw new Error(`${new URL(request.url).pathname} is not a page: its body is not a page's form`);
  let body;
  try {
    body = await readFormBody(
      {
        contentType,
        contentLength: request.headers.get("content-length") ?? undefined,
        body: request.body,
      },
      page.limits,
      page.fileField,
    );
  } catch (error) {
    if (error instanceof ApiError)
      throw refusal(error.status, `${error.status === 413 ? "Content Too Large" : "Bad Request"}: ${error.message}`);
    throw error;
  }
  const form = new FormData();
  for (const [name, values] of body.fields) {
    if (name.includes("\u0000") || values.some((value) => value.includes("\u0000")))
      throw refusal(400, "Bad Request: a field holds a NUL character.");
    for (const value of values) form.append(name, value);
  }
  for (const file of body.files) {
    if (file.fileName.includes("\u0000")) throw refusal(400, "Bad Request: a file name holds a NUL character.");
    form.append(file.field, new File([file.bytes as Uint8Array<ArrayBuffer>], file.fileName));
  }
  return form;
}
