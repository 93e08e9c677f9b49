// /ops/claims/:id/evidence/:eid/view: one photo of a claim at full width, with the claim's other photos a click away
// and its download. A file the browser cannot show (PDF, HEIC) is offered as a download.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DomainError, getOpsClaim } from "../../server/index.ts";
import { requireStaff, runtime } from "../ops/console.server.ts";
import { OpsShell } from "../ops/ui.tsx";
import {
  evidenceDownloadHref,
  evidenceImageSrc,
  evidenceTypeName,
  evidenceViewHref,
  isShownInline,
} from "../ops/evidence.tsx";
import { formatBytes } from "../ui/format.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.file.fileName} · Claim ${data.claimId} · Claims console` : "Claims console" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const staff = await requireStaff(request);
  const notFound = () => new Response("There is no such file.", { status: 404 });
  try {
    const detail = await getOpsClaim(runtime().db, runtime().services, params.id ?? "");
    const file = detail.evidence.find((candidate) => candidate.id === params.eid);
    if (!file) throw notFound();
    const photos = detail.evidence.filter(isShownInline);
    const at = photos.findIndex((photo) => photo.id === file.id);
    return json({
      staff: { email: staff.email, role: staff.role },
      claimId: detail.claim.id,
      file,
      position: at >= 0 ? { index: at + 1, of: photos.length } : null,
      previous: at > 0 ? photos[at - 1].id : null,
      next: at >= 0 && at < photos.length - 1 ? photos[at + 1].id : null,
    });
  } catch (error) {
    if (error instanceof DomainError && error.kind === "not_found") throw notFound();
    throw error;
  }
}

export default function EvidenceView() {
  const { staff, claimId, file, position, previous, next } = useLoaderData<typeof loader>();
  const claimHref = `/ops/claims/${encodeURIComponent(claimId)}`;
  return (
    <OpsShell staff={staff}>
      <p>
        <a href={`${claimHref}#files-title`}>Back to the claim</a>
      </p>
      <h1 className="evidence-title">{file.fileName}</h1>
      <p className="muted">
        {position ? `Photo ${position.index} of ${position.of} · ` : ""}
        {evidenceTypeName(file.contentType)}, {formatBytes(file.byteSize)} ·{" "}
        <a href={evidenceDownloadHref(claimId, file.id)} download>
          Download
        </a>
      </p>
      {isShownInline(file) ? (
        <figure className="evidence-large">
          <img src={evidenceImageSrc(claimId, file.id)} alt={`Evidence photo ${file.fileName}`} />
        </figure>
      ) : (
        <p>This file cannot be shown here: download it to open it.</p>
      )}
      {previous || next ? (
        <nav aria-label="Other photos of this claim" className="evidence-pager">
          {previous ? <a href={evidenceViewHref(claimId, previous)}>Previous photo</a> : <span />}
          {next ? <a href={evidenceViewHref(claimId, next)}>Next photo</a> : null}
        </nav>
      ) : null}
    </OpsShell>
  );
}
