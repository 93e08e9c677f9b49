// What the buyer's evidence may be: the five kinds the portal accepts, recognised by their bytes, and the limits of
// one submission. The claims routes and GET /portal/reasons read the limits and the content types from here.

export const EVIDENCE_CONTENT_TYPES = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/heic",
  "application/pdf",
] as const;

export type EvidenceContentType = (typeof EVIDENCE_CONTENT_TYPES)[number];

export interface EvidenceType {
  contentType: EvidenceContentType;
  /** The file name extension for this type, without the dot. */
  extension: string;
}

/** The extensions a file of each type may carry, the usual one first (the one a file without them gets). */
const EXTENSIONS: Record<EvidenceContentType, readonly string[]> = {
  "image/jpeg": ["jpg", "jpeg", "jpe"],
  "image/png": ["png"],
  "image/webp": ["webp"],
  "image/heic": ["heic", "heif"],
  "application/pdf": ["pdf"],
};

/** The evidence type of a content type, with its usual extension. */
export const evidenceType = (contentType: EvidenceContentType): EvidenceType => ({
  contentType,
  extension: EXTENSIONS[contentType][0],
});

const MAX_FILE_NAME_CHARACTERS = 200;

/**
 * The name a file is shown and downloaded under: the buyer's name with the extension of the type its bytes are (a
 * PNG named `invoice.html` is `invoice.png`, `photo.jpeg` stays), so that no download opens as another type.
 * At most 200 characters, the extension always kept.
 */
export function evidenceDownloadName(fileName: string, contentType: string): string {
  const extensions = EXTENSIONS[contentType as EvidenceContentType];
  if (!extensions) return fileName;
  const dot = fileName.lastIndexOf(".");
  // A leading dot starts a name (".profile"), not an extension.
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const extension = dot > 0 ? fileName.slice(dot + 1) : "";
  const kept = extensions.includes(extension.toLowerCase()) ? extension : extensions[0];
  return `${[...stem].slice(0, MAX_FILE_NAME_CHARACTERS - kept.length - 1).join("")}.${kept}`;
}

export const EVIDENCE_LIMITS = { maxFiles: 5, maxFileBytes: 10 * 1024 * 1024 } as const;

const MiB = 1024 * 1024;

/**
 * What evidence a claim, a plan (all its claims together) and a portal session may hold in all, files and bytes
 * (docs/api.md "Claims"). A buyer with a real claim sends a few photos and a receipt, then perhaps what the claims team
 * asks for: a claim holds four full submissions' worth of files (20) and five of bytes (50 MiB); a plan, whose claims
 * are one per reason, twice that; one 30-minute session no more than one claim. Refused with 409
 * `evidence_quota_exceeded`, the request changing nothing.
 */
export const EVIDENCE_QUOTAS = {
  claim: { maxFiles: 20, maxBytes: 50 * MiB },
  plan: { maxFiles: 40, maxBytes: 100 * MiB },
  session: { maxFiles: 20, maxBytes: 50 * MiB },
} as const;

/**
 * Bytes that are not one of the accepted kinds, or claim to be one but cannot be read as it (truncated, garbled).
 * The claims routes answer it with 422 `evidence_type_unsupported`.
 */
export class EvidenceUnsupportedError extends Error {
  readonly code = "evidence_type_unsupported";

  constructor(message: string) {
    super(message);
    this.name = "EvidenceUnsupportedError";
  }
}
