// A claim's evidence in the console: photos (JPEG, PNG, WebP) as thumbnails that open a large view, the rest (PDF,
// HEIC, which Chromium cannot draw) as downloads. The bytes come from the evidence route, sandboxed and typed by their
// contents (app/downloads.server.ts).
import type { EvidenceFile } from "../../server/index.ts";
import { formatBytes } from "../ui/format.ts";

/**
 * The evidence types a browser shows in place and that carry no active content: JPEG, PNG and WebP. HEIC (Chromium
 * cannot draw it) and PDF (a document with links, forms and scripts of its own, which Chromium's viewer will not
 * open under a sandboxing CSP) are downloaded; SVG and HTML are never accepted as evidence (server/evidence/sniff.ts).
 * The evidence route serves only these inline (app/downloads.server.ts).
 */
export const INLINE_EVIDENCE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/webp"];

const TYPE_NAMES: Record<string, string> = {
  "image/jpeg": "JPEG photo",
  "image/png": "PNG image",
  "image/webp": "WebP image",
  "image/heic": "HEIC photo: the browser cannot show it, download it to view",
  "application/pdf": "PDF document: downloads, opens in your PDF viewer",
};

export const isShownInline = (file: Pick<EvidenceFile, "contentType">) =>
  INLINE_EVIDENCE_TYPES.includes(file.contentType);

const base = (claimId: string, fileId: string) =>
  `/ops/claims/${encodeURIComponent(claimId)}/evidence/${encodeURIComponent(fileId)}`;

/** The file as an attachment. */
export const evidenceDownloadHref = (claimId: string, fileId: string) => base(claimId, fileId);
/** The photo's bytes, shown in place (an <img>). */
export const evidenceImageSrc = (claimId: string, fileId: string) => `${base(claimId, fileId)}?inline=1`;
/** The large view page of a photo. */
export const evidenceViewHref = (claimId: string, fileId: string) => `${base(claimId, fileId)}/view`;

/** Where a file's name links to: a photo's large view, any other file's download. */
export const evidenceLink = (claimId: string, file: EvidenceFile) =>
  isShownInline(file) ? evidenceViewHref(claimId, file.id) : evidenceDownloadHref(claimId, file.id);

export const evidenceTypeName = (contentType: string) => TYPE_NAMES[contentType] ?? contentType;

export function Evidence({ claimId, files }: { claimId: string; files: EvidenceFile[] }) {
  return (
    <section className="card" aria-labelledby="files-title">
      <h2 id="files-title">Evidence</h2>
      {files.length === 0 ? (
        <p className="muted">No files.</p>
      ) : (
        <ul className="evidence-grid">
          {files.map((file) => (
            <li key={file.id} className="evidence-item">
              {isShownInline(file) ? (
                <a href={evidenceViewHref(claimId, file.id)} className="evidence-thumb">
                  <img src={evidenceImageSrc(claimId, file.id)} alt="" loading="lazy" width={160} height={120} />
                  <span className="evidence-name">{file.fileName}</span>
                </a>
              ) : (
                <a href={evidenceDownloadHref(claimId, file.id)} className="evidence-thumb evidence-file" download>
                  <span className="evidence-kind" aria-hidden="true">
                    {file.contentType === "application/pdf" ? "PDF" : "HEIC"}
                  </span>
                  <span className="evidence-name">Download {file.fileName}</span>
                </a>
              )}
              <span className="muted evidence-meta">
                {evidenceTypeName(file.contentType)}, {formatBytes(file.byteSize)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
