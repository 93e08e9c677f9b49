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

export const EVIDENCE_LIMITS = { maxFiles: 5, maxFileBytes: 10 * 1024 * 1024 } as const;

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
