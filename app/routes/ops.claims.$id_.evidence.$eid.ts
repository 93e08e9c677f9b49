// GET /ops/claims/:id/evidence/:eid: a claim's file, for a signed-in staff member only. Served as an attachment with
// its stored content type (recognised by its bytes at upload), never sniffed, never cached.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { DomainError, readOpsEvidence } from "../../server/index.ts";
import { downloadResponse } from "../downloads.server.ts";
import { requireStaff, runtime } from "../ops/console.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request);
  const { db, services } = runtime();
  try {
    return downloadResponse(await readOpsEvidence(db, services, params.id ?? "", params.eid ?? ""));
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") return new Response("Not found", { status: 404 });
    throw error;
  }
}
