// GET /ops/claims/:id/evidence/:eid: a claim's file, for a signed-in staff member only: an attachment, or with
// ?inline=1 a photo shown in place (the claim page's thumbnails and large view). The type comes from the bytes and
// the response is sandboxed (app/downloads.server.ts evidenceResponse); never cached.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { DomainError, readOpsEvidence } from "../../server/index.ts";
import { evidenceResponse } from "../downloads.server.ts";
import { requireStaff, runtime } from "../ops/console.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request);
  const { db, services } = runtime();
  const inline = new URL(request.url).searchParams.get("inline") === "1";
  try {
    const file = await readOpsEvidence(db, services, params.id ?? "", params.eid ?? "");
    return evidenceResponse(file, inline ? "inline" : "attachment");
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") return new Response("Not found", { status: 404 });
    throw error;
  }
}
