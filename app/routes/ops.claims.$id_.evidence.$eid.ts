// GET /ops/claims/:id/evidence/:eid: a claim's file, for a signed-in staff member only. Served as an attachment with
// its stored content type (recognised by its bytes at upload), never sniffed, never cached.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { attachmentDisposition, DomainError, readOpsEvidence } from "../../server/index.ts";
import { requireStaff, runtime } from "../ops/console.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request);
  const { db, services } = runtime();
  try {
    const file = await readOpsEvidence(db, services, params.id ?? "", params.eid ?? "");
    // A copy typed as the ArrayBuffer view Response takes.
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "Content-Type": file.contentType,
        "Content-Length": String(file.bytes.byteLength),
        "Content-Disposition": attachmentDisposition(file.fileName),
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") return new Response("Not found", { status: 404 });
    throw error;
  }
}
